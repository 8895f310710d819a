import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { PermissionCode, UserInfo } from '@shutu/contracts';
import { API, clearToken, getToken, http, request } from './api.ts';
import { notifySuccess } from './notify.ts';
import { msg } from './messages.ts';
import { hasPermission } from './access.ts';

export const authKeys = { info: ['auth', 'info'] as const };

export const fetchUserInfo = () => http.get<UserInfo>(API.auth.info);

export async function logout(): Promise<void> {
  await request<null>(API.auth.logout, { method: 'POST', body: {}, authRedirect: false });
}

/** The signed-in user; only runs while a token is stored. */
export function useUserInfo() {
  return useQuery({ queryKey: authKeys.info, queryFn: fetchUserInfo, enabled: getToken() !== null, staleTime: 60_000 });
}

/** `can('dict_add')`: administrators may do everything. */
export function usePermission(): (code: PermissionCode) => boolean {
  const { data } = useUserInfo();
  return useCallback((code: PermissionCode) => hasPermission(data, code), [data]);
}

/**
 * Ends the session: revokes the token on the server (failures do not matter), forgets every
 * cached answer and goes to the login page.
 */
export function useSignOut(): (options?: { message?: string }) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (options) => {
      try {
        await logout();
      } catch {
        // The token may already be revoked (password change); signing out locally is enough.
      }
      clearToken();
      queryClient.clear();
      notifySuccess(options?.message ?? msg.loggedOut);
      await navigate('/login', { replace: true });
    },
    [navigate, queryClient],
  );
}
