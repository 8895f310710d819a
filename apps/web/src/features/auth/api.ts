import type { LoginResponse, SystemConfigResponse } from '@shutu/contracts';
import { DEFAULT_SYSTEM_NAME } from '@shutu/contracts/constants';
import { useQuery } from '@tanstack/react-query';
import { API, http, request } from '../../shared/api.ts';
import { md5Hex } from '../../shared/password.ts';

export interface LoginForm {
  account: string;
  password: string;
}

/** The login body carries the MD5 of the password; a 401 here is a wrong password, not an expired session. */
export function loginBody(form: LoginForm): { account: string; password: string } {
  return { account: form.account.trim(), password: md5Hex(form.password) };
}

export async function login(form: LoginForm): Promise<LoginResponse> {
  const res = await request<LoginResponse>(API.auth.login, { method: 'POST', body: loginBody(form), authRedirect: false });
  return res.data;
}

/**
 * The configured system name for the login page, from the public config. Not features/system's
 * useSystemName: its query also sets the time zone every time is shown in, with shared/time.ts
 * and the contracts' zod schemas, which the entry that draws /login does without (issue 26).
 * A key of its own, so that the app's config query still runs (and sets the zone) after sign-in.
 */
export function useLoginSystemName(): string {
  const { data } = useQuery({
    queryKey: ['auth', 'systemName'],
    queryFn: () => http.get<SystemConfigResponse>(API.system.config),
    staleTime: 5 * 60_000,
  });
  return data?.systemName || DEFAULT_SYSTEM_NAME;
}
