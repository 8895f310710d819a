import { sql, type Kysely } from 'kysely';

/**
 * PDF export of slideshows (spec 1 §2.10 导出pdf, §3 "Print form", §4, §9; docs/slideshows.md
 * "Viewer and PDF"). ppt_pdf_task: one row per export, written by the 'ppt-pdf' job: the
 * dashboards to render (board_ids, JSON text, in slideshow order), the watermark text (null:
 * none), progress as rendered of pages. The id is a random UUID (the client polls it).
 * file_path is relative to the data directory (pdf/<userId>/<id>.pdf). No foreign key to ppt:
 * a finished file stays downloadable until housekeeping. Tasks go with their user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ppt_pdf_task (
      id varchar(36) primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      ppt_id integer not null,
      file_name varchar(120) not null,
      board_ids text not null default '[]',
      watermark varchar(50),
      status varchar(16) not null default 'waiting' check (status in ('waiting', 'running', 'done', 'failed')),
      pages integer not null default 0,
      rendered integer not null default 0,
      file_path varchar(500),
      err_msg varchar(1000),
      create_time timestamptz not null default now(),
      start_time timestamptz,
      finish_time timestamptz
    )`.execute(db);
  await sql`create index ppt_pdf_task_user_idx on ppt_pdf_task (user_id, create_time desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists ppt_pdf_task`.execute(db);
}
