import type { RenderedSql } from './render.ts';

/** A statement answering several plans (grouped.ts, grouped-days.ts), and how to split its rows back per plan. */
export interface GroupedStatement extends RenderedSql {
  /** Indexes of the plans it answers, in the order of the input. */
  members: number[];
  /** The rows of each member (in member order), keyed by that plan's own aliases (d0…, m0…), in its order, up to its limit. */
  split<R extends Record<string, unknown>>(rows: readonly R[]): R[][];
}
