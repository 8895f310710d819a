import { sql, type Kysely } from 'kysely';

/**
 * Apps with two-level menus (issue 24; docs/apps.md). app: the spec's fields, publish_status 0/1
 * (docs/apps.md "Publish status"), menu_show_type '1' top / '2' pop-up. app_menu: parent_id 0 is a
 * first-level menu; visual_id points at a board (dashboard or self-service report) and is left
 * dangling when that board is deleted (the viewer then says so); visual_name is kept as saved.
 * Grants to groups use perm_grant (kind 'app').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table app (
      id serial primary key,
      app_name varchar(50) not null,
      app_icon varchar(500),
      app_description varchar(500),
      publish_status integer not null default 0,
      menu_show_type varchar(1) not null default '1',
      water_mark_status integer not null default 0,
      water_mark_text varchar(50) not null default '保密',
      create_user_id integer references sys_user (id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table app_menu (
      id serial primary key,
      app_id integer not null references app (id) on delete cascade,
      parent_id integer not null default 0,
      menu_name varchar(30) not null,
      menu_icon varchar(100) not null default 'el-icon-data-analysis',
      icon varchar(500),
      sort_num integer not null default 0,
      visual_id integer,
      visual_name varchar(200)
    )`.execute(db);
  await sql`create index app_menu_app_idx on app_menu (app_id, parent_id, sort_num)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists app_menu`.execute(db);
  await sql`drop table if exists app`.execute(db);
}
