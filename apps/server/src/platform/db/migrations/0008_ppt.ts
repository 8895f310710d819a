import { sql, type Kysely } from 'kysely';

/**
 * Slideshows (spec 1 §3 "Slideshow (powerpoint info)", "Slideshow category"; docs/slideshows.md).
 * - ppt: visual_type 0 a slideshow made in the editor, 1 a favourite, 2 an archive (both the
 *   saver's own). visual_ids is the JSON text of the ordered board ids (no foreign key: a
 *   deleted board is left out when the slideshow is read); settings the JSON text of
 *   autoPlay and interval. source_id: the slideshow a favourite or archive was made from
 *   (no foreign key: an archive outlives its source). cate_id 0 is 默认分类 (not a row).
 * - ppt_category: a user's own favourite (1) or archive (2) categories; names unique per
 *   user and type, ignoring case. Deleting one moves its records to 默认分类 (the service).
 * Grants of slideshows live in perm_grant (kind ppt), removed by the service.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ppt_category (
      id integer generated always as identity primary key,
      visual_type smallint not null check (visual_type in (1, 2)),
      classify_name varchar(50) not null,
      create_user_id integer not null references sys_user(id) on delete cascade,
      sort integer not null default 0,
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index ppt_category_name_key on ppt_category (create_user_id, visual_type, lower(classify_name))`.execute(db);
  await sql`
    create table ppt (
      id integer generated always as identity primary key,
      pp_name varchar(100) not null,
      pp_month varchar(7),
      cate_id integer not null default 0,
      visual_ids text not null default '[]',
      settings text not null default '{}',
      visual_type smallint not null default 0 check (visual_type in (0, 1, 2)),
      source_id integer,
      public_status smallint not null default 1 check (public_status in (0, 1)),
      create_user_id integer references sys_user(id) on delete cascade,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index ppt_type_idx on ppt (visual_type, id)`.execute(db);
  await sql`create index ppt_owner_idx on ppt (create_user_id, visual_type, cate_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ppt', 'ppt_category']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
