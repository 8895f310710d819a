import { sql, type Kysely } from 'kysely';

/**
 * Rate limits shared by every server process (issue 27; platform/ratelimit/shared-window.ts):
 * rate_window holds one row per limited thing (scope + key) and fixed window, the calls or events
 * every process took in it. It replaces data_api_rate (0018), whose rows only ever lived ten
 * minutes: the data API's per-key minute is now the scope `dataapi` of this table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rate_window (
      scope varchar(32) not null,
      key varchar(128) not null,
      window_start timestamptz not null,
      calls integer not null default 0,
      primary key (scope, key, window_start)
    )`.execute(db);
  await sql`create index rate_window_start_idx on rate_window (window_start)`.execute(db);
  await sql`drop table if exists data_api_rate`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists data_api_rate (
      access_key varchar(64) not null,
      window_start timestamptz not null,
      calls integer not null default 0,
      primary key (access_key, window_start)
    )`.execute(db);
  await sql`drop table if exists rate_window`.execute(db);
}
