import { sql, type Kysely } from 'kysely';

/**
 * Table exports to Excel (spec 1 §7 "Export Excel and export records"; docs/exports.md).
 * export_task: one row per export, written by the 'chart-export' job (status, progress,
 * rows). file_path is relative to the data directory (exports/<userId>/<id>.xlsx). request
 * is the JSON of the links and parameters the user had when clicking 导出. No foreign key to
 * board: a deleted board leaves its finished exports downloadable until housekeeping
 * removes them (7 days). Tasks go with their user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table export_task (
      id integer generated always as identity primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      board_id integer not null,
      chart_key varchar(64) not null,
      file_name varchar(120) not null,
      status varchar(16) not null default 'waiting' check (status in ('waiting', 'running', 'done', 'failed')),
      progress smallint not null default 0 check (progress between 0 and 100),
      row_count integer not null default 0,
      total_rows integer,
      file_path varchar(500),
      file_size bigint,
      err_msg varchar(1000),
      request text not null default '{}',
      create_time timestamptz not null default now(),
      start_time timestamptz,
      finish_time timestamptz
    )`.execute(db);
  await sql`create index export_task_user_idx on export_task (user_id, create_time desc)`.execute(db);
  await sql`create index export_task_chart_idx on export_task (board_id, chart_key, user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists export_task`.execute(db);
}
