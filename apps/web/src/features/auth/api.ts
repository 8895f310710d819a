import type { LoginResponse } from '@shutu/contracts';
import { API, request } from '../../shared/api.ts';
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
