import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sys_dept (
      id integer generated always as identity primary key,
      parent_id integer not null default 0,
      dept_name varchar(50) not null,
      sort integer not null default 0
    )`.execute(db);
  await sql`
    create table sys_role (
      id integer generated always as identity primary key,
      parent_id integer not null default 0,
      role_name varchar(50) not null,
      sort integer not null default 0
    )`.execute(db);
  await sql`
    create table sys_role_permission (
      role_id integer not null references sys_role(id) on delete cascade,
      code varchar(64) not null,
      primary key (role_id, code)
    )`.execute(db);
  await sql`
    create table sys_user (
      id integer generated always as identity primary key,
      account varchar(32) not null,
      password_hash text not null,
      name varchar(50) not null,
      real_name varchar(50),
      avatar varchar(500),
      phone varchar(20),
      email varchar(100),
      user_ext_json text,
      dept_id integer references sys_dept(id),
      is_administrator boolean not null default false,
      status smallint not null default 1,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index sys_user_account_key on sys_user (lower(account))`.execute(db);
  await sql`
    create table sys_user_role (
      user_id integer not null references sys_user(id) on delete cascade,
      role_id integer not null references sys_role(id) on delete cascade,
      primary key (user_id, role_id)
    )`.execute(db);
  await sql`
    create table auth_token (
      id integer generated always as identity primary key,
      token_hash char(64) not null unique,
      user_id integer not null references sys_user(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index auth_token_expires_idx on auth_token (expires_at)`.execute(db);
  await sql`
    create table auth_login_failure (
      id integer generated always as identity primary key,
      account varchar(64) not null,
      failed_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index auth_login_failure_idx on auth_login_failure (account, failed_at)`.execute(db);
  await sql`create table sys_config (key varchar(64) primary key, value text not null)`.execute(db);
  await sql`
    create table sys_dict (
      id integer generated always as identity primary key,
      parent_id integer not null default 0,
      code varchar(64) not null,
      dict_key integer not null,
      dict_value varchar(100) not null,
      sort integer not null,
      is_sealed smallint not null default 0,
      remark varchar(255),
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  // A parent's code is unique; a key is unique within one parent.
  await sql`create unique index sys_dict_parent_code_key on sys_dict (code) where parent_id = 0`.execute(db);
  await sql`create unique index sys_dict_child_key on sys_dict (parent_id, dict_key) where parent_id <> 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sys_dict',
    'sys_config',
    'auth_login_failure',
    'auth_token',
    'sys_user_role',
    'sys_user',
    'sys_role_permission',
    'sys_role',
    'sys_dept',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
