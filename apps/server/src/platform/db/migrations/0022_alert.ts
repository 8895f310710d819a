import { sql, type Kysely } from 'kysely';

/**
 * Alerts (预警; spec 3 §3 "Alert (warning)"; issue 19; docs/alerts.md).
 *
 * alert: every field of the spec (the JSON ones as JSON text) plus our firing settings (repeat
 * interval, recovery notice, quiet hours) and its state (ok / firing, since when), last_slot (the
 * newest due slot enqueued).
 * alert_check: one row per (alert, due slot) — the CLAIM: UNIQUE (alert_id, slot) lets exactly one
 * process check a slot; the row is also the check's log (window, rows, state, reason, error, duration).
 * alert_send: one row per (check, channel, recipient) — UNIQUE, claimed before sending, so a firing
 * notifies each recipient of each channel once even when the check is retried.
 * alert_sms_template / alert_sms_provider: SMS templates and the provider settings (secrets encrypted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table alert (
      id integer generated always as identity primary key,
      name varchar(100) not null,
      request_freq integer not null default 300 check (request_freq >= 60),
      enable_status smallint not null default 1 check (enable_status in (0, 1)),
      cube_data_id integer references cube(id) on delete set null,
      cube_data_name varchar(200),
      datasource_id integer,
      datasource_name varchar(200),
      column_json text not null default '[]',
      filter_json text not null default '[]',
      filter_relation_json varchar(3) not null default 'AND',
      filter_time_json text not null default '{}',
      warn_user_ids text not null default '',
      checked_ways text not null default '[]',
      sms_id integer,
      sms_params text not null default '{}',
      message_dynamic_content text not null default '',
      push_enabled boolean not null default false,
      warning_ways text not null default '[]',
      flow_id varchar(100),
      visual_data_json text not null default '[]',
      repeat_interval_seconds integer not null default 86400,
      notify_recovery boolean not null default false,
      quiet_start varchar(5),
      quiet_end varchar(5),
      state varchar(10) not null default 'ok' check (state in ('ok', 'firing')),
      state_since timestamptz,
      last_check_time timestamptz,
      last_fired_time timestamptz,
      last_notified_time timestamptz,
      last_slot timestamptz,
      create_user_id integer references sys_user(id) on delete set null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table alert_check (
      id integer generated always as identity primary key,
      alert_id integer not null references alert(id) on delete cascade,
      slot timestamptz not null,
      status varchar(10) not null default 'running' check (status in ('running', 'done', 'failed')),
      run_id varchar(64),
      attempts integer not null default 1,
      window_start varchar(10),
      window_end varchar(10),
      row_count integer,
      state varchar(10),
      notify_reason varchar(20),
      rows_json text,
      err_msg text,
      duration_ms integer,
      check_time timestamptz not null default now(),
      finish_time timestamptz,
      unique (alert_id, slot)
    )`.execute(db);
  await sql`create index alert_check_time_idx on alert_check (check_time desc)`.execute(db);
  await sql`
    create table alert_send (
      id integer generated always as identity primary key,
      check_id integer not null references alert_check(id) on delete cascade,
      alert_id integer not null references alert(id) on delete cascade,
      channel varchar(20) not null,
      recipient varchar(200) not null,
      status varchar(10) not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      err_msg text,
      create_time timestamptz not null default now(),
      unique (check_id, channel, recipient)
    )`.execute(db);
  await sql`create index alert_send_channel_time_idx on alert_send (channel, create_time)`.execute(db);
  await sql`
    create table alert_sms_template (
      id integer generated always as identity primary key,
      template_name varchar(100) not null,
      template_content text not null,
      template_params text not null default '',
      category varchar(20) not null default 'aliyun',
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table alert_sms_provider (
      category varchar(20) primary key,
      settings text not null default '{}',
      update_time timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['alert_sms_provider', 'alert_sms_template', 'alert_send', 'alert_check', 'alert'])
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
