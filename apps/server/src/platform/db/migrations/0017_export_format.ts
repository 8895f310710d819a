import { sql, type Kysely } from 'kysely';

/**
 * Exports as CSV besides Excel (issue 16; docs/exports.md "Formats"): export_task.format, the
 * file's format ('xlsx' for every task before, 'csv' for UTF-8 CSV with a BOM). The file's
 * extension follows it (exports/<userId>/<taskId>.<format>).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table export_task add column format varchar(8) not null default 'xlsx' check (format in ('xlsx', 'csv'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table export_task drop column format`.execute(db);
}
