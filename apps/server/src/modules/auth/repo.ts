import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

export function findUserByAccount(db: Kysely<Database>, account: string) {
  return db
    .selectFrom('sysUser')
    .select(['id', 'account', 'passwordHash', 'status', 'mustChangePassword'])
    .where((eb) => eb(eb.fn('lower', ['account']), '=', account.toLowerCase()))
    .executeTakeFirst();
}

export async function countRecentFailures(db: Kysely<Database>, account: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('authLoginFailure')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account', '=', account.toLowerCase())
    .where('failedAt', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function recordFailure(db: Kysely<Database>, account: string): Promise<void> {
  await db.insertInto('authLoginFailure').values({ account: account.toLowerCase() }).execute();
}

export async function clearFailures(db: Kysely<Database>, account: string): Promise<void> {
  await db.deleteFrom('authLoginFailure').where('account', '=', account.toLowerCase()).execute();
}
