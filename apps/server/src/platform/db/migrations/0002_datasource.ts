import { sql, type Kysely } from 'kysely';

/**
 * Data sources (spec 2 §3 "Data source"). ds_name is the spec's dsDb (the name lists show);
 * dsTypeSyl is derived from `type`. Passwords are AES-256-GCM ciphertext (platform/crypto.ts),
 * never clear text. At most one row is the built-in warehouse, and it cannot be deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_source (
      id integer generated always as identity primary key,
      ds_name varchar(50) not null,
      type varchar(16) not null check (type in ('duckdb', 'postgres', 'mysql', 'clickhouse')),
      host varchar(255),
      port integer check (port between 1 and 65535),
      database varchar(128),
      username varchar(128),
      password_encrypted text,
      path varchar(1000),
      remark varchar(255),
      is_builtin boolean not null default false,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index data_source_name_key on data_source (lower(ds_name))`.execute(db);
  await sql`create unique index data_source_builtin_key on data_source (is_builtin) where is_builtin`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists data_source`.execute(db);
}
