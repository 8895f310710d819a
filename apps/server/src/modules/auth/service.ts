import type { Kysely } from 'kysely';
import { zhCN, type LoginResponse } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/password.ts';
import { issueToken } from '../../platform/auth/tokens.ts';
import { forbidden, tooManyRequests, unauthorized } from '../../platform/http/errors.ts';
import { clearFailures, countRecentFailures, findUserByAccount, recordFailure } from './repo.ts';

export interface LoginSettings {
  tokenTtlHours: number;
  loginFailuresPerMinute: number;
}

// Verified against when the account does not exist, so both paths cost the same.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword('0'.repeat(32)));

export async function login(db: Kysely<Database>, settings: LoginSettings, account: string, passwordMd5: string): Promise<LoginResponse> {
  const since = new Date(Date.now() - 60_000);
  if ((await countRecentFailures(db, account, since)) >= settings.loginFailuresPerMinute) {
    throw tooManyRequests(zhCN.loginLocked);
  }
  const user = await findUserByAccount(db, account);
  const valid = await verifyPassword(user?.passwordHash ?? (await decoy()), passwordMd5);
  if (!user || !valid) {
    await recordFailure(db, account);
    throw unauthorized(zhCN.loginFailed);
  }
  if (user.status !== 1) throw forbidden(zhCN.accountDisabled);
  await clearFailures(db, account);
  const { token, expiresAt } = await issueToken(db, user.id, settings.tokenTtlHours);
  return { token, expiresAt: expiresAt.toISOString(), mustChangePassword: user.mustChangePassword };
}
