import { sql, type Kysely } from 'kysely';

/**
 * Alerts notify departments as they are at send time (issue 19; docs/alerts.md "Recipients"):
 * warn_user_ids stays the spec's record of chosen users; warn_dept_ids (comma list) holds the chosen
 * departments, whose members — sub-departments included — are read when a notice is sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table alert add column warn_dept_ids text not null default ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table alert drop column if exists warn_dept_ids`.execute(db);
}
