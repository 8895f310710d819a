import { sql, type Kysely } from 'kysely';

/**
 * Connected platforms (spec 3 §3 "Connected app and platform"; issue 21; docs/platforms.md).
 *
 * cdp_platform: platform types (administrators) with the open-platform settings — API base and
 * authorisation-page URLs, the component app id, its secret and message token (encrypted), the
 * last component_verify_ticket and the component access token (encrypted, with its expiry).
 * cdp_interface: a platform type's interfaces, each filling one warehouse table.
 * cdp_app: connected apps (join records) with the authorizer tokens (encrypted, with expiry).
 * cdp_task: one data task per (app, interface): request cycle, last due slot, pull state.
 * cdp_log: one row per pull (the join log).
 * cdp_fan / cdp_stat: the pulled rows, upserted by their keys (a re-pull of a span adds nothing);
 * the warehouse table of an interface is rebuilt from them. cdp_fan keeps the local edit apart
 * from the platform's values.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table cdp_platform (
      id integer generated always as identity primary key,
      platform_name varchar(50) not null unique,
      platform_type smallint not null default 0 check (platform_type between 0 and 2),
      access_type smallint not null default 0 check (access_type between 0 and 3),
      access_url varchar(300) not null,
      icon varchar(500) not null default '',
      api_base_url varchar(300) not null,
      auth_page_url varchar(300) not null,
      component_app_id varchar(64) not null default '',
      component_app_secret text not null default '',
      message_token text not null default '',
      verify_ticket text,
      ticket_time timestamptz,
      component_token text,
      component_token_expires timestamptz,
      datasource_id integer references data_source(id) on delete set null,
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table cdp_interface (
      id integer generated always as identity primary key,
      platform_id integer not null references cdp_platform(id) on delete cascade,
      interface_name varchar(50) not null,
      data_type varchar(2) not null default '0',
      kind varchar(20) not null check (kind in ('fans', 'user_summary', 'user_cumulate')),
      table_name varchar(63) not null,
      unique (platform_id, kind)
    )`.execute(db);
  await sql`
    create table cdp_app (
      id integer generated always as identity primary key,
      platform_id integer not null references cdp_platform(id),
      authorizer_app_id varchar(64) not null,
      app_name varchar(100) not null default '',
      app_icon varchar(500) not null default '',
      signature varchar(500) not null default '',
      status smallint not null default 1,
      auth_time timestamptz,
      cancel_auth_time timestamptz,
      access_token text,
      access_token_expires timestamptz,
      refresh_token text,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      unique (platform_id, authorizer_app_id)
    )`.execute(db);
  await sql`
    create table cdp_task (
      id integer generated always as identity primary key,
      apply_id integer not null references cdp_app(id) on delete cascade,
      interface_id integer not null references cdp_interface(id) on delete cascade,
      job_id uuid not null unique,
      unit varchar(10) check (unit in ('day', 'hour', 'minute', 'second')),
      value integer check (value > 0),
      last_slot timestamptz,
      running_since timestamptz,
      last_pull_time timestamptz,
      last_result boolean,
      unique (apply_id, interface_id)
    )`.execute(db);
  await sql`
    create table cdp_log (
      id integer generated always as identity primary key,
      apply_id integer not null references cdp_app(id) on delete cascade,
      task_id integer not null references cdp_task(id) on delete cascade,
      app_name varchar(100) not null,
      interface_name varchar(50) not null,
      amount integer not null default 0,
      result boolean not null,
      fail_reason text not null default '',
      span varchar(50) not null default '',
      trigger varchar(10) not null default 'schedule',
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index cdp_log_app_time_idx on cdp_log (apply_id, create_time)`.execute(db);
  await sql`
    create table cdp_fan (
      apply_id integer not null references cdp_app(id) on delete cascade,
      openid varchar(64) not null,
      nickname varchar(100) not null default '',
      sex smallint not null default 0,
      headimgurl varchar(500) not null default '',
      subscribe_time timestamptz,
      local_nickname varchar(100),
      local_sex smallint,
      local_headimgurl varchar(500),
      pulled_time timestamptz not null default now(),
      primary key (apply_id, openid)
    )`.execute(db);
  await sql`
    create table cdp_stat (
      apply_id integer not null references cdp_app(id) on delete cascade,
      kind varchar(20) not null,
      ref_date varchar(10) not null,
      user_source integer not null default 0,
      new_user integer not null default 0,
      cancel_user integer not null default 0,
      cumulate_user integer not null default 0,
      primary key (apply_id, kind, ref_date, user_source)
    )`.execute(db);
  // The WeChat-official-account platform type, with the public endpoints; an administrator fills
  // in the component app id and secret (and points the URLs elsewhere for a test platform).
  await sql`
    insert into cdp_platform (platform_name, platform_type, access_type, access_url, api_base_url, auth_page_url)
    values ('微信公众号', 0, 0, '/api/cdp/auth/url', 'https://api.weixin.qq.com', 'https://mp.weixin.qq.com/cgi-bin/componentloginpage')`.execute(db);
  await sql`
    insert into cdp_interface (platform_id, interface_name, data_type, kind, table_name)
    select id, v.name, '0', v.kind, v.tbl from cdp_platform,
      (values ('粉丝列表', 'fans', 'wx_fans'), ('用户增减数据', 'user_summary', 'wx_user_summary'), ('累计用户数据', 'user_cumulate', 'wx_user_cumulate')) as v(name, kind, tbl)
    where platform_name = '微信公众号'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['cdp_stat', 'cdp_fan', 'cdp_log', 'cdp_task', 'cdp_app', 'cdp_interface', 'cdp_platform']) {
    await sql`drop table if exists ${sql.raw(table)}`.execute(db);
  }
}
