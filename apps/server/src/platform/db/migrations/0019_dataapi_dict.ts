import { sql, type Kysely } from 'kysely';

/**
 * Enumeration dictionaries saved from a data-API preview (spec 2 §3 "Dictionary-from-API", §7;
 * issue 17, docs/dataapi.md): key_code (the dictionary's name, unique) and content, the JSON text
 * of a tree of { key, value, children? } built from the preview's ID, VALUE and PID columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_api_dict (
      id integer generated always as identity primary key,
      key_code varchar(100) not null unique,
      content text not null,
      api_id integer references data_api(id) on delete set null,
      create_user_id integer,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table data_api_dict`.execute(db);
}
