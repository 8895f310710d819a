import { sql, type Kysely } from 'kysely';

/**
 * 首页 (issue 16; docs/home.md). recent_visit: the boards and slideshows a user opened (one row
 * per user and item, its latest visit; the oldest beyond HOME_VISITS_KEPT are dropped).
 * board_favourite: the boards a user starred. No foreign keys to board or ppt: a deleted or
 * hidden item is left out when the home page is read, and the rows of a deleted user go with
 * nothing else to clean.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table recent_visit (
      user_id integer not null,
      kind varchar(10) not null,
      target_id integer not null,
      visit_time timestamptz not null default now(),
      primary key (user_id, kind, target_id)
    )`.execute(db);
  await sql`create index recent_visit_user_time_idx on recent_visit (user_id, visit_time desc)`.execute(db);
  await sql`
    create table board_favourite (
      user_id integer not null,
      board_id integer not null,
      create_time timestamptz not null default now(),
      primary key (user_id, board_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists board_favourite`.execute(db);
  await sql`drop table if exists recent_visit`.execute(db);
}
