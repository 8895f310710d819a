import type { CubeModelInput, CubeQueryRequest, FilterGroup, FieldId } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery, type CompiledQuery } from '../compiler.ts';
import { DIALECTS } from '../dialects/index.ts';
import type { QueryDialect } from '../dialects/types.ts';
import type { FormulaParams } from '../formula/compile.ts';
import type { ParamValue } from '../render.ts';
import { NOW, singleTableModel } from './fixtures.ts';

export type Expected = [sql: string, params?: ParamValue[]];
export type PerDialect = Record<QueryDialect, Expected>;

export interface CaseOptions {
  model?: CubeModelInput;
  rowFilters?: FilterGroup[];
  rowFilterSets?: FilterGroup[][];
  excludedColumnIds?: FieldId[];
  now?: Date;
  /** Global parameter values for formulas' `${key}` references. */
  params?: FormulaParams;
  /** Saved SQL views by name, read as derived tables. */
  derivedTables?: ReadonlyMap<string, string>;
}

/** Compiles one request for every dialect. */
export function compileAll(request: CubeQueryRequest, options: CaseOptions = {}): Record<QueryDialect, CompiledQuery> {
  const out = {} as Record<QueryDialect, CompiledQuery>;
  for (const d of Object.values(DIALECTS)) {
    out[d.name] = compileCubeQuery(options.model ?? singleTableModel, request, {
      dialect: d,
      now: options.now ?? NOW,
      rowFilters: options.rowFilters,
      rowFilterSets: options.rowFilterSets,
      excludedColumnIds: options.excludedColumnIds,
      params: options.params,
      derivedTables: options.derivedTables,
    });
  }
  return out;
}

/** A filter tree with one item. */
export function where(cubeColumnId: FieldId, fn: string, values: (string | number)[] = [], extra: Record<string, unknown> = {}): FilterGroup {
  return { relation: 'AND', conditions: [{ cubeColumnId, conditions: [{ function: fn as 'eq', values, ...extra }] }], filters: [] };
}

/** One request with its exact SQL (and total-count SQL, if asked for) in every dialect. */
export interface SqlCase {
  name: string;
  request: CubeQueryRequest;
  options?: CaseOptions;
  expected: PerDialect;
  count?: PerDialect;
}

export function describeSqlCases(cases: SqlCase[]): void {
  describe.each(cases)('$name', ({ request, options, expected, count }) => {
    it.each(Object.keys(DIALECTS) as QueryDialect[])('%s', (dialect) => {
      const compiled = compileAll(request, options)[dialect];
      const [sql, params = []] = expected[dialect];
      expect(compiled.sql).toBe(sql);
      expect(compiled.params).toEqual(params);
      if (count) {
        const [countSql, countParams = []] = count[dialect];
        expect(compiled.count).toEqual({ sql: countSql, params: countParams });
      } else {
        expect(compiled.count).toBeNull();
      }
    });
  });
}
