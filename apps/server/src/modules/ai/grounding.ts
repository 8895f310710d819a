import { aiMessages, cubeJoinSchema, cubeTableSchema, type DataSourceType } from '@shutu/contracts';
import type { ColumnInfo, TableInfo } from '@shutu/connectors';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/http/errors.ts';
import { assertSourceUsable, getSourceMetadata, tableCheckerFor } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql } from '../read/index.ts';
import { dialectLabel, dialectRules } from './dialect-rules.ts';

/**
 * The grounding of a SQL prompt: only what the caller may read on the chosen source — the
 * tables granted to them (all for administrators) with columns, types, comments and a few
 * sample values read through the read module (the same check as their own SQL), the join
 * keys saved datasets on this source use between those tables, and the engine's rules. With
 * more than MAX_TABLES tables the ones whose name or comment the question mentions go first.
 */
export const MAX_TABLES = 12;
const SAMPLE_ROWS = 3;
const SAMPLE_COLUMNS = 40;
const SAMPLE_TIMEOUT_MS = 5_000;

export interface GroundTable {
  /** As SQL should name it: qualified only outside the default schema. */
  name: string;
  comment: string;
  columns: (ColumnInfo & { samples: string[] })[];
}

export interface Grounding {
  engine: DataSourceType;
  tables: GroundTable[];
  joins: string[];
  /** Granted tables left out of the prompt (there were too many). */
  omitted: number;
}

/** Lower-case words of a name (order_time → order, time) and the CJK bigrams of a comment. */
function terms(text: string): string[] {
  const lower = text.toLowerCase();
  const words = lower.split(/[^a-z0-9]+/).filter((w) => w.length >= 2);
  const cjk = lower.replace(/[^\u4e00-\u9fff]/g, ' ').split(/\s+/);
  const bigrams = cjk.flatMap((run) => Array.from({ length: Math.max(0, run.length - 1) }, (_, i) => run.slice(i, i + 2)));
  return [...words, ...bigrams];
}

/** How much the question talks about a table: matched name words weigh more than comment bigrams. */
export function relevance(question: string, table: Pick<TableInfo, 'name' | 'comment'>): number {
  const q = question.toLowerCase();
  let score = q.includes(table.name.toLowerCase()) ? 10 : 0;
  for (const term of terms(table.name)) if (q.includes(term)) score += 3;
  for (const term of terms(table.comment)) if (q.includes(term)) score += 1;
  return score;
}

/** The tables most relevant to the question first; all of them when there are few. */
export function pickTables<T extends Pick<TableInfo, 'name' | 'comment'>>(question: string, tables: readonly T[], max = MAX_TABLES): T[] {
  if (tables.length <= max) return [...tables];
  return tables
    .map((table, index) => ({ table, index, score: relevance(question, table) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .map((s) => s.table);
}

const sampleText = (value: unknown) => (value === null || value === undefined ? null : String(value).slice(0, 40));

async function samplesOf(
  ctx: AppContext,
  caller: Caller,
  datasourceId: number,
  schema: string,
  table: string,
  columns: ColumnInfo[],
): Promise<Map<string, string[]>> {
  const picked = columns.slice(0, SAMPLE_COLUMNS);
  const samples = new Map<string, string[]>();
  if (picked.length === 0) return samples;
  try {
    const read = await readBoundSql(
      ctx,
      caller,
      datasourceId,
      (dialect) => ({
        sql: `SELECT ${picked.map((c) => dialect.quoteIdentifier(c.name)).join(', ')} FROM ${dialect.quoteIdentifier(schema)}.${dialect.quoteIdentifier(table)} LIMIT ${SAMPLE_ROWS}`,
        params: [],
      }),
      { max: SAMPLE_ROWS, timeoutMs: SAMPLE_TIMEOUT_MS, field: 'question' },
    );
    for (const column of picked) {
      const values = [...new Set(read.rows.map((row) => sampleText(row[column.name])).filter((v): v is string => v !== null))];
      samples.set(column.name, values);
    }
  } catch {
    // A table that cannot be sampled (a view that fails, a timeout) is described without values.
  }
  return samples;
}

const storedTables = z.array(cubeTableSchema.pick({ tableName: true, tableAliasName: true, schema: true }).passthrough());
const storedJoins = z.array(cubeJoinSchema.passthrough());

/** "a.x = b.y" for every plain-column key pair saved datasets on this source use between two of `names`. */
async function joinKeys(ctx: AppContext, datasourceId: number, nameOf: (schema: string | null, table: string) => string | undefined): Promise<string[]> {
  const rows = await ctx.db.selectFrom('cube').select(['cubeTableNames', 'linksJoin']).where('datasourceId', '=', datasourceId).execute();
  const found = new Set<string>();
  for (const row of rows) {
    let tables, joins;
    try {
      tables = storedTables.parse(JSON.parse(row.cubeTableNames));
      joins = storedJoins.parse(JSON.parse(row.linksJoin || '[]'));
    } catch {
      continue;
    }
    const byAlias = new Map(tables.map((t) => [t.tableAliasName, nameOf(t.schema ?? null, t.tableName)]));
    for (const join of joins) {
      const source = byAlias.get(join.source);
      const target = byAlias.get(join.target);
      if (!source || !target) continue;
      for (const key of join.joinKeys) {
        if (key.sourceKeyVtState === 1 || key.targetKeyVtState === 1 || !key.sourceKey || !key.targetKey) continue;
        found.add(`${source}.${key.sourceKey} = ${target}.${key.targetKey}`);
      }
    }
  }
  return [...found].slice(0, 40);
}

export async function buildGrounding(ctx: AppContext, caller: Caller, datasourceId: number, question: string): Promise<Grounding> {
  const source = await assertSourceUsable(ctx, caller, datasourceId);
  const meta = await getSourceMetadata(ctx, datasourceId);
  const checker = await tableCheckerFor(ctx, caller, datasourceId);
  const defaultSchema = await meta.defaultSchema();
  const readable: TableInfo[] = [];
  for (const table of await meta.listTables()) {
    if (table.name.startsWith('_') || table.name === 'demo_warehouse_meta') continue;
    if (checker.all || (await checker.allows({ schema: table.schema, name: table.name, quoted: true }))) readable.push(table);
  }
  if (readable.length === 0) throw badRequest(aiMessages.noTables, [{ field: 'question', message: aiMessages.noTables }]);
  const picked = pickTables(question, readable);
  const sqlName = (schema: string | null, name: string) => (schema === null || schema === defaultSchema ? name : `${schema}.${name}`);
  const tables: GroundTable[] = [];
  for (const table of picked) {
    const columns = await meta.listColumns({ schema: table.schema, name: table.name });
    const samples = await samplesOf(ctx, caller, datasourceId, table.schema, table.name, columns);
    tables.push({
      name: sqlName(table.schema, table.name),
      comment: table.comment,
      columns: columns.map((c) => ({ ...c, samples: samples.get(c.name) ?? [] })),
    });
  }
  const chosen = new Set(tables.map((t) => t.name));
  const joins = await joinKeys(ctx, datasourceId, (schema, name) => {
    const n = sqlName(schema, name);
    return chosen.has(n) ? n : undefined;
  });
  return { engine: source.type, tables, joins, omitted: readable.length - picked.length };
}

/** The grounding as the text of the system prompt. */
export function groundingText(g: Grounding): string {
  const lines = [`数据库引擎：${dialectLabel(g.engine)}`, '', '规则：', ...dialectRules(g.engine).map((r) => `- ${r}`), '', '可以查询的表：'];
  for (const table of g.tables) {
    lines.push(`表 ${table.name}${table.comment ? `（${table.comment}）` : ''}`);
    for (const c of table.columns) {
      const sample = c.samples.length > 0 ? ` 示例：${c.samples.join(' | ')}` : '';
      lines.push(`  - ${c.name} ${c.databaseType}${c.comment ? ` ${c.comment}` : ''}${sample}`);
    }
  }
  if (g.omitted > 0) lines.push(`（另有 ${g.omitted} 张表与问题关系不大，未列出）`);
  if (g.joins.length > 0) lines.push('', '已有数据集使用的关联条件：', ...g.joins.map((j) => `- ${j}`));
  return lines.join('\n');
}
