import type { ProfileUpdate, UserInfo } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { hashPasswordFields } from '../../shared/password.ts';

export interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const PASSWORD_MIN_LENGTH = 6;

/** All three entries travel as MD5 hex. */
export function passwordBody(form: PasswordForm): PasswordForm {
  return hashPasswordFields(form, ['oldPassword', 'newPassword', 'confirmPassword'] as const);
}

export const saveProfile = (body: ProfileUpdate) => http.put<UserInfo | null>(API.profile.info, body);
export const changePassword = (form: PasswordForm) => http.put<null>(API.profile.password, passwordBody(form));
