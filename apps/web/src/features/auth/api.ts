import type { LoginResponse, UserInfo } from '@shutu/contracts';
import { API, http, request } from '../../app/api.ts';
import { md5Hex } from '../../shared/password.ts';

export const authKeys = { info: ['auth', 'info'] as const };

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

export async function logout(): Promise<void> {
  await request<null>(API.auth.logout, { method: 'POST', body: {}, authRedirect: false });
}

export const fetchUserInfo = () => http.get<UserInfo>(API.auth.info);
