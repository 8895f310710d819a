import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithApp, user } from '../test/render.tsx';
import { Guarded } from './guard.tsx';

describe('route guard', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('refuses an administrator page to a non-administrator with a Chinese 403 page', () => {
    renderWithApp(
      <Guarded access="admin">
        <div>用户列表内容</div>
      </Guarded>,
      { info: user({ isAdministrator: false, permissions: ['dict_view'] }) },
    );
    expect(screen.queryByText('用户列表内容')).toBeNull();
    expect(screen.getByText('没有访问权限')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();
  });

  it('opens a permission page to a holder of the code', () => {
    renderWithApp(
      <Guarded access={{ permission: 'dict_view' }}>
        <div>字典内容</div>
      </Guarded>,
      { info: user({ isAdministrator: false, permissions: ['dict_view'] }) },
    );
    expect(screen.getByText('字典内容')).toBeTruthy();
  });

  it('administrators hold every permission', () => {
    renderWithApp(
      <Guarded access={{ permission: 'dict_view' }}>
        <div>字典内容</div>
      </Guarded>,
      { info: user({ isAdministrator: true, permissions: [] }) },
    );
    expect(screen.getByText('字典内容')).toBeTruthy();
  });
});
