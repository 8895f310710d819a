import { sql, type Kysely } from 'kysely';

/**
 * Approval workflow (issue 23; docs/workflow.md). workflow_definition: every deployed version of
 * a BPMN process (processDefinitionId = key:version:hash). workflow_instance: one running or
 * finished process, the engine's JSON state after its last step plus the columns we query
 * (status, current activity, assignee, business id); `revision` is bumped by every step so two
 * processes never both apply one. workflow_history: the steps — the open user task is the row
 * with end_time null (its id is the taskId), finished ones carry who did what and the comment.
 * workflow_leave: the leave request (businessId) the instance is about.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table workflow_definition (
      id varchar(64) primary key,
      process_key varchar(64) not null,
      name varchar(100) not null,
      version integer not null,
      xml text not null,
      content_hash varchar(64) not null,
      deploy_time timestamptz not null default now(),
      unique (process_key, version)
    )`.execute(db);
  await sql`
    create table workflow_instance (
      id varchar(36) primary key,
      definition_id varchar(64) not null references workflow_definition (id),
      business_id varchar(36) not null,
      starter_id integer not null references sys_user (id),
      status varchar(16) not null,
      current_activity_id varchar(64),
      current_activity_name varchar(100),
      assignee_id integer references sys_user (id),
      state text not null,
      finished_activities text not null default '[]',
      revision integer not null default 1,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      end_time timestamptz
    )`.execute(db);
  await sql`create index workflow_instance_starter_idx on workflow_instance (starter_id, create_time)`.execute(db);
  await sql`create index workflow_instance_assignee_idx on workflow_instance (assignee_id) where status = 'running'`.execute(db);
  await sql`
    create table workflow_history (
      id varchar(36) primary key,
      instance_id varchar(36) not null references workflow_instance (id) on delete cascade,
      activity_id varchar(64) not null,
      activity_name varchar(100) not null,
      assignee_id integer references sys_user (id),
      action varchar(16) not null,
      comment text,
      create_time timestamptz not null default now(),
      end_time timestamptz
    )`.execute(db);
  await sql`create index workflow_history_instance_idx on workflow_history (instance_id, create_time)`.execute(db);
  await sql`create index workflow_history_open_idx on workflow_history (assignee_id) where end_time is null`.execute(db);
  await sql`
    create table workflow_leave (
      id varchar(36) primary key,
      applicant_id integer not null references sys_user (id),
      approver_id integer not null references sys_user (id),
      start_time varchar(19) not null,
      end_time varchar(19) not null,
      reason varchar(500) not null,
      create_time timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists workflow_leave`.execute(db);
  await sql`drop table if exists workflow_history`.execute(db);
  await sql`drop table if exists workflow_instance`.execute(db);
  await sql`drop table if exists workflow_definition`.execute(db);
}
