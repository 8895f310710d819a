import { sql, type Kysely } from 'kysely';

/**
 * Order-data export tasks resume instead of failing (issue 20; docs/order-export.md "A killed
 * server"): resume_bytes is the length of the partial CSV at the last checkpoint (its rows are
 * `progress`), resumes how many times the task was taken up again after its process died.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_export_task add column resume_bytes bigint`.execute(db);
  await sql`alter table order_export_task add column resumes smallint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_export_task drop column if exists resumes`.execute(db);
  await sql`alter table order_export_task drop column if exists resume_bytes`.execute(db);
}
