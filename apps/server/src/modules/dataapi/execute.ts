import { DATA_API_MAX_ROWS, DATA_API_TIMEOUT_MS, type DataApi, type DataApiRunResult } from '@shutu/contracts';
import type { Dialect, GuardDialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { checkBoundSql, readBoundSql, type BoundStatement } from '../read/index.ts';
import { bindSql, literal } from './bind.ts';
import { callExternalApi } from './external.ts';
import { declaredParams, parseNote, parseParams, parseType3Params, type BoundValue } from './params.ts';

/**
 * Running a data API for a subject (docs/dataapi.md "Who reads"): the values are parsed and
 * typed first (a wrong or missing one is the caller's 400, before anything runs), then the
 * read goes through the read module with the subject's table grants: type 1 its SQL, type 3 a
 * SELECT of its table built here with quoted names and one bound condition per parameter given;
 * type 2 calls its URL and hands the answer to the sandboxed handler.
 */

/** What a call runs once its parameters are parsed: any failure from here on is the API's. */
export type PreparedCall = () => Promise<DataApiRunResult>;

/** A table name as the API stores it: `schema.table` or `table`, each part quoted for the dialect. */
function quotedTable(dialect: Dialect, name: string): string {
  const dot = name.indexOf('.');
  if (dot > 0 && dot < name.length - 1) return `${dialect.quoteIdentifier(name.slice(0, dot))}.${dialect.quoteIdentifier(name.slice(dot + 1))}`;
  return dialect.quoteIdentifier(name);
}

function placeholderOf(dialect: Dialect, value: BoundValue, params: (string | number)[]): string {
  if (dialect.capabilities.serverSideParameters) {
    params.push(value);
    return dialect.placeholder(params.length);
  }
  return literal(dialect, value);
}

/** Type 3: SELECT the shown fields (or every column) of the table WHERE each given parameter's column equals its value. */
export function type3Statement(api: DataApi, conditions: ReturnType<typeof parseType3Params>, dialect: Dialect, max: number): BoundStatement {
  const shown = parseNote(api.note).showFields.map((f) => f.columnName);
  const select = shown.length > 0 ? [...new Set(shown)].map((c) => dialect.quoteIdentifier(c)).join(', ') : '*';
  const params: (string | number)[] = [];
  const where = conditions.map(({ item, kind, value }) => {
    const ph = placeholderOf(dialect, value, params);
    return `${dialect.quoteIdentifier(item.columnName)} = ${kind === 'datetime' ? dialect.timestamp(ph) : ph}`;
  });
  const sql = `SELECT ${select} FROM ${quotedTable(dialect, api.queryTable ?? '')}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ${dialect.limitOffset(max + 1, null)}`;
  return { sql, params };
}

/** Parses the call's values and returns what runs it (the caller times, logs and counts failures). */
export function prepareCall(
  ctx: AppContext,
  api: DataApi,
  subject: Caller,
  given: Record<string, unknown>,
  options: { max?: number; cacheTtlMs?: number } = {},
): PreparedCall {
  const max = options.max ?? DATA_API_MAX_ROWS;
  const cacheTtlMs = options.cacheTtlMs ?? 0;
  if (api.apiType === 1) {
    const values = parseParams(declaredParams(parseNote(api.note)), given);
    return async () => {
      const read = await readBoundSql(
        ctx,
        subject,
        api.datasourceId!,
        (dialect, engine) => bindSql(api.querySql ?? '', engine as GuardDialect, dialect, values),
        { max, timeoutMs: DATA_API_TIMEOUT_MS, field: 'querySql', cacheTtlMs },
      );
      return { data: read.rows, rows: read.rows.length, elapsedMs: read.elapsedMs, truncated: read.truncated };
    };
  }
  if (api.apiType === 3) {
    const conditions = parseType3Params(api.queryParam, given);
    return async () => {
      const read = await readBoundSql(ctx, subject, api.datasourceId!, (dialect) => type3Statement(api, conditions, dialect, max), {
        max,
        timeoutMs: DATA_API_TIMEOUT_MS,
        field: 'queryTable',
        cacheTtlMs,
      });
      return { data: read.rows, rows: read.rows.length, elapsedMs: read.elapsedMs, truncated: read.truncated };
    };
  }
  if (api.apiType === 2) {
    const values = parseParams(declaredParams(parseNote(api.note)), given);
    return async () => {
      const started = performance.now();
      const data = await callExternalApi(ctx, api, Object.fromEntries(values));
      return { data, rows: Array.isArray(data) ? data.length : 1, elapsedMs: Math.round(performance.now() - started), truncated: false };
    };
  }
  throw badRequest();
}

/** Save-time check of a type-1 or type-3 API as its author: the guard, the engine's parser, the author's table grants. */
export async function checkApiQuery(ctx: AppContext, api: DataApi, author: Caller): Promise<void> {
  if (api.apiType === 1) {
    const keys = new Map<string, BoundValue | null>(declaredParams(parseNote(api.note)).map((p) => [p.key.trim(), null]));
    await checkBoundSql(ctx, author, api.datasourceId!, (dialect, engine) => bindSql(api.querySql ?? '', engine as GuardDialect, dialect, keys), 'querySql');
  } else if (api.apiType === 3) {
    await checkBoundSql(ctx, author, api.datasourceId!, (dialect) => type3Statement(api, [], dialect, 1), 'queryTable');
  }
}
