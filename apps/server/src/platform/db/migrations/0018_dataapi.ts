import { sql, type Kysely } from 'kysely';

/**
 * Data APIs (spec 2 §3 "Data API"; issue 17; docs/dataapi.md).
 *
 * data_api_category: the list's category menu (names unique ignoring case).
 * data_api: every field of the spec; api_headers, note (showFields and params) and query_param
 * (type-3 items) are JSON text as the spec keeps them. fail_count counts consecutive failed
 * published calls: at 5 an online API turns faulty (api_status 2).
 * data_api_key: access keys. secret_hash is sha256 of the secret (bearer calls are looked up by
 * it); secret_enc is the secret encrypted with the server's credentials key (platform/crypto.ts),
 * which signature checks need (an HMAC needs the key on both sides); the secret itself is shown
 * once, when the key is made. data_api_key_scope: the APIs a key may call.
 * data_api_nonce: nonces of signed calls, kept for the signature window, so a replay is refused
 * by every process sharing the store. data_api_rate: calls per key per minute (every process).
 * data_api_call_log: one row per published call. data_api_setting: the module's settings (the
 * outgoing-host allow-list of external APIs).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_api_category (
      id integer generated always as identity primary key,
      category_name varchar(100) not null,
      sort integer not null default 0,
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index data_api_category_name_idx on data_api_category (lower(category_name))`.execute(db);
  await sql`
    create table data_api (
      id integer generated always as identity primary key,
      api_key varchar(100) not null unique,
      api_name varchar(100) not null,
      category_id integer references data_api_category(id) on delete set null,
      api_formal smallint not null default 1,
      remark varchar(500) not null default '',
      datasource_id integer references data_source(id) on delete set null,
      query_table varchar(200),
      query_sql text,
      api_type smallint not null default 1 check (api_type in (1, 2, 3)),
      chart_type smallint not null default 0 check (chart_type between 0 and 3),
      api_status smallint not null default 1 check (api_status in (0, 1, 2)),
      api_url varchar(2000),
      api_method varchar(8) not null default 'get' check (api_method in ('get', 'post')),
      api_param_type smallint not null default 0 check (api_param_type in (0, 1)),
      api_js_function text not null,
      api_headers text not null default '{}',
      note text not null default '{}',
      query_param text not null default '[]',
      fail_count integer not null default 0,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index data_api_category_idx on data_api (category_id, id desc)`.execute(db);
  await sql`
    create table data_api_key (
      id integer generated always as identity primary key,
      key_name varchar(100) not null,
      access_key varchar(64) not null unique,
      secret_hash char(64) not null unique,
      secret_enc text not null,
      enabled boolean not null default true,
      rate_limit integer not null default 600,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      last_used_time timestamptz
    )`.execute(db);
  await sql`
    create table data_api_key_scope (
      key_id integer not null references data_api_key(id) on delete cascade,
      api_id integer not null references data_api(id) on delete cascade,
      primary key (key_id, api_id)
    )`.execute(db);
  await sql`
    create table data_api_nonce (
      access_key varchar(64) not null,
      nonce varchar(128) not null,
      expires_at timestamptz not null,
      primary key (access_key, nonce)
    )`.execute(db);
  await sql`create index data_api_nonce_expiry_idx on data_api_nonce (expires_at)`.execute(db);
  await sql`
    create table data_api_rate (
      access_key varchar(64) not null,
      window_start timestamptz not null,
      calls integer not null default 0,
      primary key (access_key, window_start)
    )`.execute(db);
  await sql`
    create table data_api_call_log (
      id bigint generated always as identity primary key,
      api_id integer references data_api(id) on delete set null,
      api_key varchar(100) not null,
      access_key varchar(64),
      user_id integer,
      params text not null default '{}',
      status integer not null,
      row_count integer not null default 0,
      duration_ms integer not null default 0,
      error_msg varchar(500),
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index data_api_call_log_api_idx on data_api_call_log (api_id, create_time desc)`.execute(db);
  await sql`create index data_api_call_log_time_idx on data_api_call_log (create_time desc)`.execute(db);
  await sql`
    create table data_api_setting (
      setting_key varchar(64) primary key,
      setting_value text not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'data_api_setting',
    'data_api_call_log',
    'data_api_rate',
    'data_api_nonce',
    'data_api_key_scope',
    'data_api_key',
    'data_api',
    'data_api_category',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
