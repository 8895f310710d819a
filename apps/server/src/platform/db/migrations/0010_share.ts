import { sql, type Kysely } from 'kysely';

/**
 * Share links (spec 1 §3 "Share link", §7 "Shares"; docs/shares.md).
 *
 * share_link: one short link to a dashboard / report (board id) or a slideshow (ppt id); no
 * foreign key to the shared content (boards and slideshows live in other tables): a link whose
 * content is gone answers 链接不存在或已失效. code: URL-safe random, unique. link_type 0
 * login-free (the owner's rows), 1 account matching (the visitor's rows). password_hash: argon2
 * of the clear password, null without one. Links go with their creator.
 *
 * auth_token.scope: a token handed out by an opened link carries what it may read
 * ({"share": linkId, "boards": [ids], "ppt": id|null}); null for ordinary sessions. Such a
 * token is refused on every route not marked shareable (platform/auth/access.ts).
 *
 * Which groups may use an account-matching link (the 第三方链接 tab) lives in perm_grant
 * with kind 'link'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table share_link (
      id integer generated always as identity primary key,
      code varchar(32) not null unique,
      data_type varchar(16) not null check (data_type in ('visual', 'report', 'ppt')),
      data_id integer not null,
      visual_data_title varchar(200) not null,
      purpose varchar(200) not null default '',
      link_type smallint not null default 0 check (link_type in (0, 1)),
      password_hash varchar(200),
      expire_time timestamptz,
      enabled boolean not null default true,
      create_user_id integer not null references sys_user(id) on delete cascade,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index share_link_user_idx on share_link (create_user_id, id desc)`.execute(db);
  await sql`create index share_link_data_idx on share_link (data_type, data_id)`.execute(db);
  await sql`alter table auth_token add column scope jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_token drop column if exists scope`.execute(db);
  await sql`drop table if exists share_link`.execute(db);
}
