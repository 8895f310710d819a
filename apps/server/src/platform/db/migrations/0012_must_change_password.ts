import { sql, type Kysely } from 'kysely';
import { md5Hex, verifyPassword } from '../../auth/password.ts';

/**
 * sys_user.must_change_password (docs/decisions.md "Initial password"): set on the seeded
 * administrator while it still has the built-in password admin123; the API then refuses every
 * call but the password change, logout and current-user info (403 请先修改初始密码).
 *
 * A store seeded before this migration gets the flag on `admin` if that account still signs in
 * with admin123, so an upgraded installation is no weaker than a new one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sys_user add column must_change_password boolean not null default false`.execute(db);
  const { rows } = await sql<{ id: number; hash: string }>`select id, password_hash as hash from sys_user where lower(account) = 'admin'`.execute(db);
  for (const row of rows) {
    if (await verifyPassword(row.hash, md5Hex('admin123'))) {
      await sql`update sys_user set must_change_password = true where id = ${row.id}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sys_user drop column if exists must_change_password`.execute(db);
}
