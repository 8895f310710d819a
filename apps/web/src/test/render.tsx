import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { UserInfo } from '@shutu/contracts';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { authKeys } from '../shared/session.ts';

export function user(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 1,
    account: 'admin',
    name: '管理员',
    realName: null,
    avatar: null,
    phone: null,
    email: null,
    deptId: null,
    roleIds: [],
    isAdministrator: true,
    permissions: [],
    mustChangePassword: false,
    ...overrides,
  };
}

/** Renders `ui` inside the app's providers with `info` as the signed-in user, at `path`. */
export function renderWithApp(ui: ReactElement, { info = user(), path = '/' }: { info?: UserInfo | null; path?: string } = {}) {
  const queryClient = createQueryClient();
  if (info) {
    localStorage.setItem('shutu.token', 'test-token');
    queryClient.setQueryData(authKeys.info, info);
  } else {
    // Signed out means no token, whatever an earlier file of this worker left behind (isolate: false).
    localStorage.removeItem('shutu.token');
  }
  const result = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={ui} />
          <Route path="/login" element={<div>登录页</div>} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
}
