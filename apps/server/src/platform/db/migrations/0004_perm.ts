import { sql, type Kysely } from 'kysely';

/**
 * Permission groups and grants (spec 2 §3 "Permission group", "Data-source authorisation").
 * - perm_json keeps the spec's shape (dpList, roleList, userList, blackUserList with id and
 *   name) as JSON text: membership is resolved in the permission service, not in SQL.
 * - perm_grant_table: the tables of a data source granted to a group; goes with the group
 *   and with the source.
 * - perm_grant: the generic grant of one resource (dataset, slide, screen, report, app,
 *   link) to a group. Resources of different kinds live in different tables, so there is no
 *   foreign key: each module removes the grants of what it deletes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table perm_type (
      id integer generated always as identity primary key,
      type_name varchar(50) not null,
      sort_num integer not null default 0,
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index perm_type_name_key on perm_type (lower(type_name))`.execute(db);
  await sql`
    create table perm_group (
      id integer generated always as identity primary key,
      perm_name varchar(50) not null,
      type_id integer not null references perm_type(id),
      perm_json text not null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index perm_group_name_key on perm_group (lower(perm_name))`.execute(db);
  await sql`create index perm_group_type_idx on perm_group (type_id)`.execute(db);
  await sql`
    create table perm_grant_table (
      perm_id integer not null references perm_group(id) on delete cascade,
      datasource_id integer not null references data_source(id) on delete cascade,
      table_schema varchar(255) not null,
      table_name varchar(255) not null,
      primary key (perm_id, datasource_id, table_schema, table_name)
    )`.execute(db);
  await sql`create index perm_grant_table_source_idx on perm_grant_table (datasource_id)`.execute(db);
  await sql`
    create table perm_grant (
      perm_id integer not null references perm_group(id) on delete cascade,
      kind varchar(32) not null,
      resource_id integer not null,
      create_time timestamptz not null default now(),
      primary key (perm_id, kind, resource_id)
    )`.execute(db);
  await sql`create index perm_grant_resource_idx on perm_grant (kind, resource_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['perm_grant', 'perm_grant_table', 'perm_group', 'perm_type']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
