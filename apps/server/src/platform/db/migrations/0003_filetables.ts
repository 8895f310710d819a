import { sql, type Kysely } from 'kysely';

/**
 * File tables and SQL views (spec 2 §3 "SQL view", "File table form"). A file table row
 * records a table created in a data source from an uploaded file: `status` is 'loading'
 * while its rows are loaded (the row reserves the name) and 'ready' after. Names are unique
 * per data source, ignoring case. Both go with their data source.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_table (
      id integer generated always as identity primary key,
      datasource_id integer not null references data_source(id) on delete cascade,
      table_name varchar(64) not null,
      table_comment varchar(100) not null,
      file_name varchar(255) not null,
      columns_json text not null,
      row_count bigint not null default 0,
      status varchar(16) not null default 'loading' check (status in ('loading', 'ready')),
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index file_table_name_key on file_table (datasource_id, lower(table_name))`.execute(db);
  await sql`
    create table sql_view (
      id integer generated always as identity primary key,
      datasource_id integer not null references data_source(id) on delete cascade,
      sql_name varchar(100) not null,
      view_name varchar(64) not null,
      sql_statement text not null,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index sql_view_name_key on sql_view (datasource_id, lower(view_name))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sql_view`.execute(db);
  await sql`drop table if exists file_table`.execute(db);
}
