import type { CubeModelInput, CubeQueryRequest, FilterGroup } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { clickhouse, compileCubeQuery, DIALECTS, QueryError, type CompiledQuery, type Dialect, type QueryDialect, type RenderedSql } from './index.ts';
import { numberLiteral } from './render.ts';
import { plausibleGroup, plausibleModel, plausibleRequest, randomGroup, randomModel, randomRequest } from './testing/fuzz-gen.ts';
import { ordersModel } from './testing/fixtures.ts';
import { chance, int, mulberry32, pick } from './testing/prng.ts';
import { tokenizeSql, type SqlToken } from './testing/sql-lexer.ts';

/**
 * Thousands of random requests — filter trees and computed-field formulas full of quotes,
 * comments, semicolons, backslashes, NUL and odd unicode — each either compiles to SQL
 * whose every value is bound (or, on ClickHouse, sits inside one correctly escaped
 * literal: checked by re-tokenizing against a parameterised twin), or is refused with a
 * QueryError. Anything else fails the test.
 */

const SEED = 0x5eed_2024;
const REQUESTS = 2500;

/** ClickHouse with placeholders: the same tree rendered with `?` where values go. */
const clickhouseTwin: Dialect = { ...clickhouse, capabilities: { ...clickhouse.capabilities, serverSideParameters: true }, placeholder: () => '?' };

/** String literals the code itself writes (date units, MySQL date formats, the LIKE escape). */
const STATIC_LITERALS = new Set(['\\', 'year', 'quarter', 'month', 'week', 'day', 'hour', '%Y-01-01', '%Y-%m-01', '%Y-%m-%d %H:00:00']);
const GENERATED_ALIAS = /^(d|m|o|s|p)[0-9]+$|^(k|q|a|b|x|sketch|days|total)$/;
const VOCABULARY = new Set(
  `SELECT DISTINCT AS FROM WHERE GROUP BY HAVING ORDER ASC DESC NULLS LAST LIMIT OFFSET LEFT RIGHT INNER JOIN ALL ON AND OR
  NOT IS NULL IN BETWEEN CASE WHEN THEN ELSE END TRUE FALSE CAST TIMESTAMP VARCHAR TEXT CHAR DATETIME DOUBLE PRECISION
  NUMERIC DATE INTEGER INTERVAL YEAR QUARTER MONTH DAY HOUR UNION INTERSECT EXCEPT LIKE ILIKE ESCAPE EXTRACT COUNT SUM AVG
  MAX MIN COALESCE NULLIF ABS ROUND CEIL FLOOR MOD POWER SQRT LENGTH UPPER LOWER SUBSTR SUBSTRING TRIM REPLACE DATE_DIFF
  DATE_TRUNC STRPOS INSTR CHAR_LENGTH DAYOFMONTH DATEDIFF DATE_FORMAT MAKEDATE WEEKDAY CONCAT TOSTRING LENGTHUTF8 UPPERUTF8
  LOWERUTF8 SUBSTRINGUTF8 REPLACEALL TOYEAR TOQUARTER TOMONTH TODAYOFMONTH TOHOUR TORELATIVEDAYNUM IFNULL UNIQEXACT
  TODATETIME TOSTARTOFYEAR TOSTARTOFQUARTER TOSTARTOFMONTH TOMONDAY TOSTARTOFDAY TOSTARTOFHOUR MODULO POW POSITION TOFLOAT64
  UNIQ HASH FILTER LOG2 LN BIGINT`.split(/\s+/),
);

function knownIdentifiers(model: CubeModelInput): Set<string> {
  const names = new Set<string>();
  for (const t of model.tables) [t.tableName, t.tableAliasName, t.schema].forEach((n) => n && names.add(n));
  for (const f of model.fields) if (f.columnName) names.add(f.columnName);
  return names;
}

/** SQL with bound values: no comments, no `;`, no literal but the code's own, every name known. */
function checkBound(rendered: RenderedSql, dialect: QueryDialect, identifiers: Set<string>): SqlToken[] {
  const tokens = tokenizeSql(rendered.sql, dialect);
  const placeholders: string[] = [];
  for (const t of tokens) {
    if (t.type === 'comment' || (t.type === 'punct' && t.value === ';')) throw new Error(`${t.type} in ${rendered.sql}`);
    if (t.type === 'string' && !STATIC_LITERALS.has(t.value)) throw new Error(`literal ${JSON.stringify(t.value)} in ${rendered.sql}`);
    if (t.type === 'ident' && !identifiers.has(t.value) && !GENERATED_ALIAS.test(t.value)) throw new Error(`identifier ${t.value}`);
    if (t.type === 'word' && !VOCABULARY.has(t.value)) throw new Error(`word ${t.value} in ${rendered.sql}`);
    if (t.type === 'placeholder') placeholders.push(t.value);
  }
  if (placeholders.length !== rendered.params.length) throw new Error(`${placeholders.length} placeholders, ${rendered.params.length} params`);
  if (placeholders[0]?.startsWith('$') && placeholders.some((ph, i) => ph !== `$${i + 1}`)) throw new Error(`placeholders out of order: ${placeholders}`);
  return tokens;
}

/** Inlined SQL equals its parameterised twin with each placeholder replaced by one literal of exactly that value. */
function checkInlined(inline: RenderedSql, twin: RenderedSql, identifiers: Set<string>): void {
  if (inline.params.length > 0) throw new Error('inlined SQL with parameters');
  const expected = checkBound(twin, 'clickhouse', identifiers);
  const actual = tokenizeSql(inline.sql, 'clickhouse');
  const same = (a: SqlToken | undefined, b: SqlToken) => a !== undefined && a.type === b.type && a.value === b.value;
  let j = 0;
  let p = 0;
  for (const t of expected) {
    let want: SqlToken[] = [t];
    if (t.type === 'placeholder') {
      const value = twin.params[p++]!;
      const text = typeof value === 'number' ? numberLiteral(value) : null;
      if (text === null) want = [{ type: 'string', value: value as string }];
      else if (text.startsWith('('))
        want = [
          { type: 'punct', value: '(' },
          { type: 'punct', value: '-' },
          { type: 'number', value: text.slice(2, -1) },
          { type: 'punct', value: ')' },
        ];
      else want = [{ type: 'number', value: text }];
    }
    for (const w of want) {
      if (!same(actual[j], w)) throw new Error(`token ${j}: expected ${JSON.stringify(w)}, got ${JSON.stringify(actual[j])} in ${inline.sql}`);
      j++;
    }
  }
  if (j !== actual.length) throw new Error(`extra tokens after ${j} in ${inline.sql}`);
}

type Outcome = { ok: CompiledQuery } | { refused: QueryError };

function attempt(
  model: CubeModelInput,
  request: CubeQueryRequest,
  dialect: Dialect,
  rowFilters: FilterGroup[],
  excluded: number[],
  rowFilterAnyOf: FilterGroup[] = [],
): Outcome {
  try {
    return {
      ok: compileCubeQuery(model, request, {
        dialect,
        now: new Date('2024-03-15T02:30:00Z'),
        rowFilters,
        rowFilterSets: [rowFilterAnyOf],
        excludedColumnIds: excluded,
      }),
    };
  } catch (e) {
    if (e instanceof QueryError) {
      // A Chinese message for the 400 / 403.
      if (!/[\u4e00-\u9fff]/.test(e.message) || (e.status !== 400 && e.status !== 403)) throw new Error(`odd refusal ${e.status} ${e.message}`, { cause: e });
      return { refused: e };
    }
    throw e;
  }
}

describe('fuzz: random filter trees and formulas', () => {
  it(`compiles safely or refuses, ${REQUESTS} requests × 4 dialects (seed ${SEED})`, { timeout: 60_000 }, () => {
    const r = mulberry32(SEED);
    const tally = { compiled: 0, refused: 0, values: 0 };
    for (let n = 0; n < REQUESTS; n++) {
      // Half plausible (type-correct, hostile values and literals), half anything goes.
      const plausible = chance(r, 0.5);
      const model = plausible ? plausibleModel(r) : chance(r, 0.9) ? randomModel(r) : ordersModel;
      const request = plausible ? plausibleRequest(r) : randomRequest(r);
      const rowFilters = chance(r, 0.2) ? [plausible ? plausibleGroup(r) : randomGroup(r)] : [];
      const excluded = chance(r, 0.1) ? [pick(r, [1, 3, 4, 6])] : [];
      const anyOf = chance(r, 0.1) ? [plausible ? plausibleGroup(r) : randomGroup(r), plausible ? plausibleGroup(r) : randomGroup(r)] : [];
      const identifiers = knownIdentifiers(model);
      try {
        for (const name of Object.keys(DIALECTS) as QueryDialect[]) {
          const outcome = attempt(model, request, DIALECTS[name], rowFilters, excluded, anyOf);
          if ('refused' in outcome) {
            tally.refused++;
            continue;
          }
          tally.compiled++;
          const compiled = outcome.ok;
          if (name !== 'clickhouse') {
            checkBound(compiled, name, identifiers);
            if (compiled.count) checkBound(compiled.count, name, identifiers);
            tally.values += compiled.params.length;
            continue;
          }
          const twin = attempt(model, request, clickhouseTwin, rowFilters, excluded, anyOf);
          if (!('ok' in twin)) throw new Error(`the parameterised twin refused: ${twin.refused.message}`);
          checkInlined(compiled, twin.ok, identifiers);
          if (compiled.count) checkInlined(compiled.count, twin.ok.count!, identifiers);
        }
      } catch (e) {
        (e as Error).message +=
          `\n  request #${n}: ${JSON.stringify({ request, formula: model.fields.filter((f) => f.columnAttr === 'VIRTUAL').map((f) => f.columnFormula), rowFilters, anyOf })}`;
        throw e;
      }
    }
    // Not vacuous: plenty of each outcome, and plenty of hostile values travelled as data.
    expect(tally.compiled).toBeGreaterThan(REQUESTS);
    expect(tally.refused).toBeGreaterThan(REQUESTS);
    expect(tally.values).toBeGreaterThan(REQUESTS * 10);
  });

  it('also holds for a dialect whose connector switched capabilities', () => {
    const r = mulberry32(SEED + 1);
    const variant: Dialect = { ...DIALECTS.mysql, capabilities: { ...DIALECTS.mysql.capabilities, setOperations: true, nullsLast: int(r, 0, 1) === 1 } };
    for (let n = 0; n < 300; n++) {
      const model = randomModel(r);
      const outcome = attempt(model, randomRequest(r), variant, [], []);
      if ('ok' in outcome) checkBound(outcome.ok, 'mysql', knownIdentifiers(model));
    }
  });
});
