import { sql, type Kysely } from 'kysely';

/**
 * The approver's email as an outbox (issue 23; docs/workflow.md "Approver mail"). A row is written
 * in the same transaction as the step that gives someone a task (started / transferred), so a
 * process killed after the commit still knows the mail is owed. status: pending → sending (claimed
 * by run_id at claim_time; attempts counts claims) → sent / failed (error holds the mail server's
 * words) / skipped (the task was decided or withdrawn before the mail went out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table workflow_notice (
      id varchar(36) primary key,
      instance_id varchar(36) not null references workflow_instance (id) on delete cascade,
      task_id varchar(36) not null,
      assignee_id integer not null references sys_user (id),
      kind varchar(16) not null,
      status varchar(16) not null default 'pending',
      attempts integer not null default 0,
      run_id varchar(64),
      error text,
      create_time timestamptz not null default now(),
      claim_time timestamptz,
      finish_time timestamptz
    )`.execute(db);
  await sql`create index workflow_notice_open_idx on workflow_notice (create_time) where status in ('pending', 'sending')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists workflow_notice`.execute(db);
}
