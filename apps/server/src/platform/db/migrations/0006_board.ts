import { sql, type Kysely } from 'kysely';

/**
 * Boards (spec 1 §3 "Report", "Report category", "Dashboard", "Chart"): big-screen
 * dashboards (kind visual) and self-service reports (kind report) share these tables.
 * - board_category: a two-level tree per kind; parent_id 0 is the top level (no foreign
 *   key: 0 is not a row). Names are unique under one parent of one kind, ignoring case.
 * - board: content is the JSON text of the canvas and layout. The category is restricted,
 *   not cascaded: deleting a category boards still use is refused (409).
 * - board_chart: the charts of a board, going with it. dataconfig, option, modal_set, site
 *   and ext are JSON text. No foreign key to cube: a deleted dataset leaves the chart's
 *   config in place, and reading the chart answers 404 数据集不存在.
 * Grants of boards live in perm_grant (kind visual / report), removed by the service.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table board_category (
      id integer generated always as identity primary key,
      kind varchar(16) not null check (kind in ('visual', 'report')),
      category_key varchar(50),
      category_value varchar(50) not null,
      parent_id integer not null default 0,
      sort_num integer not null default 0,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index board_category_name_key on board_category (kind, parent_id, lower(category_value))`.execute(db);
  await sql`
    create table board (
      id integer generated always as identity primary key,
      kind varchar(16) not null check (kind in ('visual', 'report')),
      title varchar(100) not null,
      category_id integer not null references board_category(id) on delete restrict,
      content text not null,
      background_url varchar(2000),
      public_status smallint not null default 1 check (public_status in (0, 1)),
      sort_num integer not null default 0,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index board_kind_sort_idx on board (kind, sort_num, id)`.execute(db);
  await sql`create index board_category_idx on board (category_id)`.execute(db);
  await sql`create index board_creator_idx on board (create_user_id)`.execute(db);
  await sql`
    create table board_chart (
      id integer generated always as identity primary key,
      board_id integer not null references board(id) on delete cascade,
      chart_key varchar(64) not null,
      name varchar(32) not null,
      title varchar(100) not null default '',
      dataconfig text,
      option text not null default '{}',
      modal_set text,
      site text not null default '{}',
      ext text not null default '{}',
      unique (board_id, chart_key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['board_chart', 'board', 'board_category']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
