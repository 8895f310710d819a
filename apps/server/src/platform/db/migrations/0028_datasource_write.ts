import { sql, type Kysely } from 'kysely';

/**
 * The write permission of a data-source grant (issue 28; docs/filetables-and-sqlviews.md
 * "Who may upload"): members of a group holding a row here may upload file tables into that
 * source. Table grants stay in perm_grant_table; this is the one flag per (group, source).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table perm_grant_write (
      perm_id integer not null references perm_group(id) on delete cascade,
      datasource_id integer not null references data_source(id) on delete cascade,
      primary key (perm_id, datasource_id)
    )`.execute(db);
  await sql`create index perm_grant_write_source_idx on perm_grant_write (datasource_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists perm_grant_write`.execute(db);
}
