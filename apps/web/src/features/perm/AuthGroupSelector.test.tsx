import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../test/render.tsx';
import { AuthGroupSelector, type ChosenGroup } from './AuthGroupSelector.tsx';
import { bossGroup, page, salesGroup, types } from './test-fixtures.ts';

function Host({ initial = null }: { initial?: ChosenGroup | null }) {
  const [value, setValue] = useState<ChosenGroup | null>(initial);
  return (
    <>
      <AuthGroupSelector value={value} onChange={setValue} />
      <output data-testid="value">{value ? `${value.id}:${value.name}` : ''}</output>
    </>
  );
}

describe('AuthGroupSelector', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows 未选择 and no 选择 button to a non-administrator', () => {
    const calls = mockFetch(() => undefined);
    renderWithApp(<Host />, { info: user({ isAdministrator: false }) });
    expect(screen.getByTestId('auth-group-selected').textContent).toBe('未选择');
    expect(screen.queryByRole('button', { name: /选\s*择/ })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('shows the chosen name to a non-administrator', () => {
    mockFetch(() => undefined);
    renderWithApp(<Host initial={{ id: 12, name: '管理层 & 财务' }} />, { info: user({ isAdministrator: false }) });
    expect(screen.getByTestId('auth-group-selected').textContent).toBe('管理层 & 财务');
  });

  it('lets an administrator pick a group in the dialog, which sets the name', async () => {
    mockFetch((c) => {
      if (c.url === '/api/perm/types') return ok(types);
      if (c.url.startsWith('/api/perm/groups?')) return ok(page([salesGroup, bossGroup]));
      return undefined;
    });
    renderWithApp(<Host />);
    fireEvent.click(screen.getByRole('button', { name: /选\s*择/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('选择权限组')).toBeTruthy();
    const card = (await within(dialog).findByText('管理层 & 财务')).closest('[data-testid="perm-group-card"]') as HTMLElement;
    fireEvent.click(within(card).getByRole('button', { name: /选\s*择/ }));
    await waitFor(() => expect(screen.getByTestId('auth-group-selected').textContent).toBe('管理层 & 财务'));
    expect(screen.getByTestId('value').textContent).toBe('12:管理层 & 财务');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
