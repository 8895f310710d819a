import { sql, type Kysely } from 'kysely';

/**
 * Audiences (人群; spec 3 §3 "Audience group", "Tag-driven audience", "Import group"; issue 18;
 * docs/audiences.md).
 *
 * audience_category: 人群分类 (id, name; spec 3 §3 "Audience category").
 * audience: one row per audience of every kind — 'dataset' (define_rule: the dataset rules combined by
 * 交/并/差), 'tag' (rules: the tag-driven editor's JSON) and 'import' (a phone file). Its state after the
 * last refresh: status, size, refreshed_at, duration_ms, error, and member_table — the warehouse table
 * holding its members now (a refresh loads a new table and switches this name in one update; the old
 * table is dropped afterwards). last_slot is the newest due time a refresh was enqueued for.
 * audience_refresh: one row per (audience, due slot) — the CLAIM: UNIQUE (audience_id, slot) lets exactly
 * one process refresh a due time, across restarts and processes; also the refresh log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table audience_category (
      id integer generated always as identity primary key,
      name varchar(50) not null unique,
      sort integer not null default 0,
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table audience (
      id integer generated always as identity primary key,
      group_name varchar(100) not null,
      classify_id integer references audience_category(id) on delete set null,
      kind varchar(10) not null check (kind in ('dataset', 'tag', 'import')),
      request_freq smallint not null default 0 check (request_freq between 0 and 3),
      remark varchar(500) not null default '',
      define_rule text not null default '[]',
      rules text not null default '{}',
      group_use smallint not null default 0 check (group_use in (0, 1)),
      default_show smallint not null default 0,
      is_online smallint not null default 1,
      user_group_status smallint not null default 0 check (user_group_status in (0, 1)),
      start_analyse_date varchar(7),
      end_analyse_date varchar(7),
      analyse_date_json text not null default '{}',
      datasource_id integer,
      member_table varchar(120),
      member_columns text not null default '[]',
      status varchar(10) not null default 'new' check (status in ('new', 'running', 'done', 'failed')),
      size bigint,
      refreshed_at timestamptz,
      duration_ms integer,
      error text,
      import_valid integer,
      import_invalid integer,
      import_duplicate integer,
      last_slot timestamptz,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index audience_owner_idx on audience (create_user_id)`.execute(db);
  await sql`
    create table audience_refresh (
      id integer generated always as identity primary key,
      audience_id integer not null references audience(id) on delete cascade,
      slot timestamptz not null,
      status varchar(10) not null default 'running' check (status in ('running', 'done', 'failed')),
      run_id varchar(64),
      size bigint,
      duration_ms integer,
      error text,
      start_time timestamptz not null default now(),
      finish_time timestamptz,
      unique (audience_id, slot)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists audience_refresh`.execute(db);
  await sql`drop table if exists audience`.execute(db);
  await sql`drop table if exists audience_category`.execute(db);
}
