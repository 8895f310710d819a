import { sql, type Kysely } from 'kysely';

/**
 * AI assistance (issue 25; docs/ai.md "Call log"). ai_call_log: one row per generation, written
 * when the call starts (outcome running) so the per-user rate limit counts calls in flight in
 * every process, and completed with the tokens, duration and outcome; accepted turns true when
 * the user keeps the result. The API key is never stored here (the settings keep it encrypted
 * in sys_config).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ai_call_log (
      id serial primary key,
      user_id integer not null,
      purpose varchar(20) not null,
      datasource_id integer,
      model varchar(100) not null default '',
      prompt_tokens integer not null default 0,
      completion_tokens integer not null default 0,
      attempts integer not null default 0,
      duration_ms integer not null default 0,
      outcome varchar(20) not null default 'running',
      accepted boolean not null default false,
      error text,
      create_time timestamptz not null default now()
    )`.execute(db);
  await sql`create index ai_call_log_user_time_idx on ai_call_log (user_id, create_time)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists ai_call_log`.execute(db);
}
