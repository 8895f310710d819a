import { sql, type Kysely } from 'kysely';

/**
 * Several server processes on one PostgreSQL (issue 27; docs/scale-out.md):
 * - cache_version: one row per cache topic, bumped with every published change (platform/cache/bus.ts);
 *   read after a reconnect and every second, so a missed NOTIFY cannot keep a stale entry alive.
 * - share_open_failure: wrong share-link passwords, counted by every process together (the
 *   per-minute attempt limit), as auth_login_failure does for sign-ins.
 * - data_source.local_owner: set on a process's embedded DuckDB warehouse (host:file); only that
 *   process opens it, and no other process rewrites its path (modules/datasource/warehouse.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table cache_version (topic text primary key, version bigint not null default 0)`.execute(db);
  await sql`create table share_open_failure (id bigserial primary key, code text not null, failed_at timestamptz not null default now())`.execute(db);
  await sql`create index share_open_failure_code_at on share_open_failure (code, failed_at)`.execute(db);
  await sql`alter table data_source add column local_owner text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data_source drop column if exists local_owner`.execute(db);
  await sql`drop table if exists share_open_failure`.execute(db);
  await sql`drop table if exists cache_version`.execute(db);
}
