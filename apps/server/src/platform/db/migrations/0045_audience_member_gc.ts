import { sql, type Kysely } from 'kysely';

/**
 * Audience member tables that are not (or no longer) an audience's current one (docs/audiences.md
 * "Member tables"): `pending` from the moment a computation names its table until it switches,
 * `retired` from the moment a newer table (or the audience's deletion) replaced it. A sweep drops a
 * retired table after a grace period — an export or statistic that was already reading it finishes —
 * and a pending one only when its computation must have died (older than any computation may run).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table audience_member_gc (
      table_name varchar(128) primary key,
      state varchar(16) not null,
      since timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists audience_member_gc`.execute(db);
}
