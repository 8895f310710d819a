import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Splash } from './Splash.tsx';

describe('the splash (what index.html paints, drawn again while the shell loads)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('shows the logo and 数图, and on a share link 正在打开分享… under it, as the first paint did', () => {
    window.history.replaceState(null, '', '/home');
    const { unmount } = render(<Splash />);
    expect(screen.getByTestId('boot-splash').textContent).toBe('数图');
    unmount();

    window.history.replaceState(null, '', '/share/AbC123');
    render(<Splash />);
    expect(screen.getByTestId('boot-splash').textContent).toBe('数图正在打开分享…');
  });
});
