import { sql, type Kysely } from 'kysely';

/**
 * Order-data export tasks (spec 3 §3 "Order-data export task", §4 statuses 0–9; issue 20;
 * docs/order-export.md). task_status1 is the spec's taskStatus1; status_log is the JSON list of
 * every change ({ status, time, rows }); run_id is the job run that owns the task while it runs
 * (platform/jobs/recovery.ts), so a run presumed dead writes nothing. phones_path is the
 * uploaded batch of phone numbers (utype 2), result_path the extracted rows (NDJSON, read by
 * pageresult), file_path the CSV; files are removed after the retention period (expired_at).
 * order_export_setting: the module's settings (one row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table order_export_task (
      id integer generated always as identity primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      mcomment varchar(100),
      utype smallint not null,
      cusertype smallint not null,
      condition_json text not null,
      phones_path varchar(500),
      task_status1 smallint not null default 0 check (task_status1 between 0 and 9),
      progress bigint not null default 0,
      fetched_nums bigint,
      status_log text not null default '[]',
      error_msg varchar(1000),
      result_path varchar(500),
      file_path varchar(500),
      run_id varchar(64),
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      expired_at timestamptz
    )`.execute(db);
  await sql`create index order_export_task_user_idx on order_export_task (user_id, create_time desc)`.execute(db);
  // One row: the batch's line limit (maxrows) and how many days generated files are kept.
  await sql`
    create table order_export_setting (
      id smallint primary key default 1 check (id = 1),
      max_rows integer not null default 1000000 check (max_rows > 0),
      retention_days integer not null default 7 check (retention_days between 1 and 3650)
    )`.execute(db);
  await sql`insert into order_export_setting (id) values (1)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists order_export_setting`.execute(db);
  await sql`drop table if exists order_export_task`.execute(db);
}
