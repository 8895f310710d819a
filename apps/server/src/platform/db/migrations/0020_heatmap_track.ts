import { sql, type Kysely } from 'kysely';

/**
 * Click tracking (issue 22; docs/heatmap.md "Tracker and ingestion"). track_site: one row per
 * website that sends clicks, its write key (the tracker's data-write-key) and the project its
 * events belong to; the demo website's key is made here. track_event: the clicks the tracker
 * sent, appended in bulk by the ingestion writer; read by the heat map beside the warehouse's
 * click_events, under the same table grant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table track_site (
      id serial primary key,
      write_key varchar(64) not null unique,
      site_name varchar(100) not null,
      project varchar(100) not null default 'production',
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`insert into track_site (write_key, site_name) values ('demo-site', '演示网站')`.execute(db);
  await sql`
    create table track_event (
      id bigserial primary key,
      site_id integer not null references track_site (id) on delete cascade,
      event varchar(32) not null,
      event_time timestamptz not null,
      distinct_id varchar(100) not null,
      phone varchar(20),
      page_title varchar(200) not null,
      url varchar(1000) not null,
      platform_type varchar(10) not null,
      project varchar(100) not null,
      x integer not null,
      y integer not null,
      page_width integer not null
    )`.execute(db);
  await sql`create index track_event_page_time_idx on track_event (page_title, event_time)`.execute(db);
  await sql`create index track_event_phone_idx on track_event (phone)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists track_event`.execute(db);
  await sql`drop table if exists track_site`.execute(db);
}
