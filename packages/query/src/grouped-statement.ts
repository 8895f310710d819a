import type { Dialect } from './dialects/types.ts';
import type { RenderedSql } from './render.ts';

/** A statement answering several plans (grouped.ts, grouped-days.ts), and how to split its rows back per plan. */
export interface GroupedStatement extends RenderedSql {
  /** Indexes of the plans it answers, in the order of the input. */
  members: number[];
  /** The rows of each member (in member order), keyed by that plan's own aliases (d0…, m0…), in its order, up to its limit. */
  split<R extends Record<string, unknown>>(rows: readonly R[]): R[][];
}

/**
 * The rows of a grouped statement split back per member: each row's "q" names its member, whose
 * map gives, per its own alias, the statement's column holding it.
 */
export function splitRows<R extends Record<string, unknown>>(rows: readonly R[], columnsOf: readonly ReadonlyMap<string, string>[]): R[][] {
  const out: R[][] = columnsOf.map(() => []);
  for (const row of rows) {
    const m = Number(row.q);
    const map = columnsOf[m];
    if (!map) continue;
    const own: Record<string, unknown> = {};
    for (const [alias, column] of map) own[alias] = row[column];
    out[m]!.push(own as R);
  }
  return out;
}

/** A member's branch: its numbered rows (a SELECT with "q" and "rn" columns) kept up to its limit. */
export function limitedBranch(dialect: Dialect, m: number, numbered: string, limit: number): string {
  const q = (name: string) => dialect.quoteIdentifier(name);
  return `(SELECT * FROM (${numbered}) AS ${q(`b${m}`)} WHERE ${q('rn')} <= ${Math.trunc(limit)})`;
}

/** The statement: its CTEs, then every member's branch, in member order and each in its own order. */
export function branchesStatement(dialect: Dialect, ctes: string, branches: readonly string[]): string {
  const q = (name: string) => dialect.quoteIdentifier(name);
  return `WITH ${ctes} SELECT * FROM (${branches.join(' UNION ALL ')}) AS ${q('u')} ORDER BY ${q('q')}, ${q('rn')}`;
}
