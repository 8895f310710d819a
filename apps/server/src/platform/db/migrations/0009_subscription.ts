import { sql, type Kysely } from 'kysely';

/**
 * Subscriptions and their sending log (spec 1 §3 "Subscription form", "Subscription log";
 * docs/subscriptions.md).
 *
 * subscription: who subscribed to what (data_type visual | report | ppt, data_id), how
 * (notify_type), when (trigger_* in Asia/Shanghai wall-clock time) and in which format.
 * last_slot is the latest due time already handed to the send job (or passed over when the
 * subscription was saved), so a tick never enqueues a due time twice.
 *
 * subscription_log: one row per due time and subscription, written BEFORE sending (state
 * pending): UNIQUE (subscription_id, slot) is the claim that makes a due time send at most
 * once across restarts and duplicate jobs; attempts bounds the one retry of a pending row a
 * crash left behind. The row keeps the names it showed (sub_title, user_name), so it survives
 * the subscription's deletion (subscription_id set null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table subscription (
      id integer generated always as identity primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      data_type varchar(16) not null check (data_type in ('visual', 'report', 'ppt')),
      data_id integer not null,
      sub_title varchar(200) not null default '',
      notify_title varchar(100) not null,
      notify_type varchar(16) not null check (notify_type in ('email', 'qywechat', 'dingtalk', 'feishu', 'tianxiangyun')),
      trigger_period varchar(8) not null check (trigger_period in ('day', 'week', 'month')),
      trigger_hour smallint not null check (trigger_hour between 0 and 23),
      trigger_week_value smallint not null default 2 check (trigger_week_value between 1 and 7),
      trigger_day_value smallint not null default 1 check (trigger_day_value between 1 and 30),
      format varchar(8) not null default 'image' check (format in ('image', 'pdf')),
      enabled boolean not null default true,
      create_time timestamptz not null default now(),
      last_slot timestamptz
    )`.execute(db);
  await sql`create index subscription_user_idx on subscription (user_id, create_time desc)`.execute(db);
  await sql`create index subscription_enabled_idx on subscription (enabled)`.execute(db);
  await sql`
    create table subscription_log (
      id integer generated always as identity primary key,
      subscription_id integer references subscription(id) on delete set null,
      sub_title varchar(200) not null default '',
      data_type varchar(16) not null,
      data_id integer not null,
      user_id integer references sys_user(id) on delete set null,
      user_name varchar(100),
      notify_type varchar(16) not null,
      state varchar(8) not null default 'pending' check (state in ('pending', 'sent', 'failed')),
      attempts smallint not null default 1,
      err_code integer not null default -1,
      err_msg varchar(1000),
      content text,
      slot timestamptz not null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      unique (subscription_id, slot)
    )`.execute(db);
  await sql`create index subscription_log_time_idx on subscription_log (create_time desc)`.execute(db);
  await sql`create index subscription_log_user_idx on subscription_log (user_id, create_time desc)`.execute(db);
  await sql`create index subscription_log_pending_idx on subscription_log (state, update_time) where state = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists subscription_log`.execute(db);
  await sql`drop table if exists subscription`.execute(db);
}
