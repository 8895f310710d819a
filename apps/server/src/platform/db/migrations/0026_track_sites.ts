import { sql, type Kysely } from 'kysely';

/**
 * Write-key management for click tracking (issue 22; docs/heatmap.md "Sites and write keys"):
 * a site can be disabled (its batches refused, its clicks kept), has a rate limit per write key
 * (events per second), a retention period for its clicks, and counters of what it sent: events
 * accepted, batches and events refused as invalid, batches refused by the rate limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table track_site
      add column enabled boolean not null default true,
      add column rate_limit integer not null default 5000,
      add column retention_days integer not null default 365,
      add column accepted_events bigint not null default 0,
      add column invalid_batches bigint not null default 0,
      add column invalid_events bigint not null default 0,
      add column limited_batches bigint not null default 0,
      add column last_event_time timestamptz`.execute(db);
  // Retention deletes by site and time.
  await sql`create index track_event_site_time_idx on track_event (site_id, event_time)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists track_event_site_time_idx`.execute(db);
  await sql`
    alter table track_site
      drop column enabled, drop column rate_limit, drop column retention_days, drop column accepted_events,
      drop column invalid_batches, drop column invalid_events, drop column limited_batches, drop column last_event_time`.execute(db);
}
