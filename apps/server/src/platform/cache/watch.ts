import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow, QueryId } from 'kysely';
import type { ExecuteSql } from '../db/execute-sql.ts';
import type { CacheTopic } from './topics.ts';

/** The NOTIFY channel of the cache bus (bus.ts listens on it). */
export const CACHE_CHANNEL = 'shutu_cache';

/**
 * Tables whose rows are kept in memory by the read path (a board's chart, its dataset, fields,
 * permission filters, SQL views) and the topic a write to them invalidates. Every write is
 * seen twice, so no code path can forget to publish:
 *
 * - in this process, by WriteWatchPlugin on the Kysely instance, right after the statement ran;
 * - in every process sharing a PostgreSQL store, by a statement trigger that bumps the topic's
 *   version row and NOTIFYs it — delivered at COMMIT, so no process reloads a row before the
 *   change is visible (installTableWatches).
 */
export const WATCHED_TABLES: Readonly<Record<string, readonly CacheTopic[]>> = {
  board: ['dataset'],
  board_chart: ['dataset'],
  board_category: ['dataset'],
  cube: ['dataset'],
  cube_category: ['dataset'],
  cube_field: ['dataset'],
  cube_perm_filter: ['dataset'],
  sql_view: ['dataset'],
  data_source: ['dataset', 'datasource'],
  perm_group: ['dataset', 'perm'],
  perm_grant: ['perm'],
  perm_grant_table: ['perm'],
  perm_grant_write: ['perm'],
  sys_dept: ['perm'],
  sys_user: ['dataset', 'perm', 'session'],
  sys_user_role: ['perm', 'session'],
  sys_role_permission: ['session'],
  auth_token: ['session'],
};

const normal = (name: string) => name.replace(/_/g, '').toLowerCase();
const byNormalName = new Map(Object.entries(WATCHED_TABLES).map(([table, topics]) => [normal(table), topics]));

/** The watched topics a write statement touches, if any. */
function writtenTopics(node: RootOperationNode): readonly CacheTopic[] | undefined {
  let table: unknown;
  if (node.kind === 'InsertQueryNode') table = node.into;
  else if (node.kind === 'UpdateQueryNode') table = node.table;
  else if (node.kind === 'DeleteQueryNode') table = node.from.froms[0];
  else return undefined;
  const name = tableName(table);
  return name ? byNormalName.get(normal(name)) : undefined;
}

function tableName(node: unknown): string | undefined {
  const n = node as { kind?: string; table?: { identifier?: { name?: string } }; node?: unknown } | undefined;
  if (n?.kind === 'TableNode') return n.table?.identifier?.name;
  if (n?.kind === 'AliasNode') return tableName(n.node);
  return undefined;
}

/** Told of every write to a watched table in this process. */
export type WriteSink = (topic: CacheTopic) => void;

/**
 * A Kysely plugin that reports writes to watched tables once they ran (their own
 * transaction may still be open: the commit's NOTIFY, on PostgreSQL, reports them again).
 */
export class WriteWatchPlugin implements KyselyPlugin {
  private readonly pending = new WeakMap<QueryId, readonly CacheTopic[]>();
  private sinks: WriteSink[] = [];

  /** Adds a sink; returns its removal. */
  onWrite(sink: WriteSink): () => void {
    this.sinks.push(sink);
    return () => (this.sinks = this.sinks.filter((s) => s !== sink));
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const topics = writtenTopics(args.node);
    if (topics) {
      this.pending.set(args.queryId, topics);
      // Before too: a read racing this write must not keep what it loaded before it.
      this.tell(topics);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const topics = this.pending.get(args.queryId);
    if (topics) this.tell(topics);
    return args.result;
  }

  private tell(topics: readonly CacheTopic[]): void {
    for (const topic of topics) for (const sink of this.sinks) sink(topic);
  }
}

/**
 * The statement triggers of WATCHED_TABLES (PostgreSQL stores): created or replaced at start,
 * under an advisory lock so that processes starting together do not collide.
 */
export async function installTableWatches(executeSql: ExecuteSql): Promise<void> {
  const triggers = Object.entries(WATCHED_TABLES)
    .map(
      ([table, topics]) =>
        `create or replace trigger shutu_cache_watch after insert or update or delete or truncate on ${table} for each statement execute function shutu_cache_bump(${topics.map((t) => `'${t}'`).join(', ')});`,
    )
    .join('\n');
  await executeSql(`do $outer$ begin
  perform pg_advisory_xact_lock(7274270);
  create or replace function shutu_cache_bump() returns trigger language plpgsql as $fn$
  declare v bigint;
  begin
    for i in 0 .. tg_nargs - 1 loop
      insert into cache_version (topic, version) values (tg_argv[i], 1)
        on conflict (topic) do update set version = cache_version.version + 1
        returning version into v;
      perform pg_notify('${CACHE_CHANNEL}', tg_argv[i] || ':' || v || ':db');
    end loop;
    return null;
  end $fn$;
  ${triggers}
end $outer$`);
}
