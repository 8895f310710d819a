import { sql, type Kysely } from 'kysely';

/**
 * File-table loads that survive a crash (issue 14; docs/filetables-and-sqlviews.md "Crash
 * safety"). A load writes a private staging table (staging_name) and renames it to table_name
 * at the end; the reservation row says which process loads it (owner_instance) and when that
 * process last said it is alive (heartbeat_time, database time). 'publishing': the rows are
 * all loaded and the rename is under way, so recovery finishes it instead of dropping it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_table add column staging_name varchar(64)`.execute(db);
  await sql`alter table file_table add column owner_instance varchar(64)`.execute(db);
  await sql`alter table file_table add column heartbeat_time timestamptz`.execute(db);
  await sql`alter table file_table drop constraint if exists file_table_status_check`.execute(db);
  await sql`alter table file_table add constraint file_table_status_check check (status in ('loading', 'publishing', 'ready'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from file_table where status = 'publishing'`.execute(db);
  await sql`alter table file_table drop constraint if exists file_table_status_check`.execute(db);
  await sql`alter table file_table add constraint file_table_status_check check (status in ('loading', 'ready'))`.execute(db);
  await sql`alter table file_table drop column if exists heartbeat_time`.execute(db);
  await sql`alter table file_table drop column if exists owner_instance`.execute(db);
  await sql`alter table file_table drop column if exists staging_name`.execute(db);
}
