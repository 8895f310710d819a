import { sql, type Kysely } from 'kysely';

/**
 * The order-data export writes its CSV slice by slice of order ids (issue 20; docs/order-export.md
 * "The extraction"): resume_key is the last order id of the last slice written whole (with
 * resume_bytes the file's length then and `progress` its rows). A resumed task goes on after it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_export_task add column resume_key bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_export_task drop column if exists resume_key`.execute(db);
}
