import { sql, type Kysely } from 'kysely';

/**
 * Jobs whose process died (issue 14; docs/architecture.md "Jobs"). job_instance: one row per
 * process working jobs, its heartbeat (database time) renewed every few seconds. job_run: one
 * row per job a process is running (the pg-boss job id, its queue and data), removed when the
 * handler returns. A run whose instance stopped heart-beating is abandoned: the recovery sweep
 * of a live process takes it over (platform/jobs/recovery.ts). No foreign key between them: an
 * instance row goes when its process stops, its runs stay for the sweep.
 *
 * run_id on export_task, ppt_pdf_task and subscription_log: the run that claimed the task (or
 * the send), so a sweep touches exactly the task of the dead run, never a later run's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table job_instance (
      id varchar(36) primary key,
      host varchar(255) not null default '',
      pid integer not null default 0,
      started_at timestamptz not null default now(),
      heartbeat_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table job_run (
      id varchar(36) primary key,
      instance_id varchar(36) not null,
      queue varchar(200) not null,
      job_id varchar(64) not null,
      data text not null default '{}',
      started_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index job_run_instance_idx on job_run (instance_id)`.execute(db);
  await sql`alter table export_task add column run_id varchar(36)`.execute(db);
  await sql`alter table ppt_pdf_task add column run_id varchar(36)`.execute(db);
  await sql`alter table subscription_log add column run_id varchar(36)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table subscription_log drop column if exists run_id`.execute(db);
  await sql`alter table ppt_pdf_task drop column if exists run_id`.execute(db);
  await sql`alter table export_task drop column if exists run_id`.execute(db);
  await sql`drop table if exists job_run`.execute(db);
  await sql`drop table if exists job_instance`.execute(db);
}
