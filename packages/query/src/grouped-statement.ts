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
