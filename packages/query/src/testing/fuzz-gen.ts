import { FILTER_FUNCTIONS, TIME_UNITS, type CubeModelInput, type CubeQueryRequest, type FilterGroup } from '@shutu/contracts';
import { FUNCTION_CATALOGUE } from '../formula/functions.ts';
import { ordersModel } from './fixtures.ts';
import { chance, int, NASTY, pick, randomNastyString, type Random } from './prng.ts';

/** Random requests, filter trees and formulas for the fuzz test: mostly plausible, often hostile. */

const FIELD_IDS: (number | string)[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 98, 99];
const TITLES = ['省份', '渠道', '手机号', '金额', '下单时间', '用户名', '年龄', '客单价', '金额分档', '含税金额', '公式', '不存在', '金额]'];
const GARBAGE = [';', '--', '/*', '*/', '#', '"', '`', '%', '||', "'", '\\', '\0', '$1', '?', ']', '{', '（', '@', 'DROP', 'SELECT 1'];
const FUNCTIONS = [...FUNCTION_CATALOGUE.map((f) => f.name), 'SLEEP', 'PG_SLEEP', 'LOAD_FILE', 'system'];

export function randomValue(r: Random): string | number | null {
  switch (int(r, 0, 9)) {
    case 0:
      return null;
    case 1:
      return int(r, -1000, 1000);
    case 2:
      return (r() - 0.5) * 10 ** int(r, 0, 25);
    case 3:
      return pick(r, ['12', '-3.5', '1e3', '12345678901234567890', '0x10', '1 OR 1=1', ' 7 ']);
    case 4:
      return pick(r, ['2024-03-05', '202403', '2024', '2024-03-05 10:00', '2024-02-30', 'yesterday', "2024-01-01' --"]);
    default:
      return randomNastyString(r);
  }
}

export function randomGroup(r: Random, depth = 1): FilterGroup {
  const maxDepth = chance(r, 0.05) ? 3 : 2;
  const group: FilterGroup = {
    relation: pick(r, ['AND', 'OR', 'and', 'or'] as const),
    conditions: Array.from({ length: int(r, 0, 3) }, () => ({
      cubeColumnId: chance(r, 0.05) ? 404 : pick(r, FIELD_IDS),
      connectType: pick(r, ['and', 'or'] as const),
      aggregation: chance(r, 0.3) ? pick(r, ['SUM', 'COUNT', 'COUNT_DISTINCT', 'APPROX_COUNT_DISTINCT', 'MAX', 'MIN', 'AVG'] as const) : undefined,
      dateType: chance(r, 0.1) ? pick(r, [...TIME_UNITS, 'DATE', 'week'] as const) : undefined,
      conditions: Array.from({ length: chance(r, 0.03) ? 0 : int(r, 1, 2) }, () => ({
        function: chance(r, 0.02) ? ('exec' as 'eq') : pick(r, FILTER_FUNCTIONS),
        values: Array.from({ length: int(r, 0, 3) }, () => randomValue(r)),
        timeType: chance(r, 0.25) ? ('relative' as const) : ('absolute' as const),
        countType: pick(r, ['left', 'right'] as const),
        dateType: chance(r, 0.3) ? pick(r, [...TIME_UNITS, 'DATE'] as const) : undefined,
      })),
    })),
    filters: [],
  };
  if (depth < maxDepth) group.filters = Array.from({ length: int(r, 0, 2) }, () => randomGroup(r, depth + 1)) as FilterGroup['filters'];
  return group;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export function randomFormula(r: Random, depth = 0): string {
  const leaf = (): string => {
    switch (int(r, 0, 5)) {
      case 0:
        return String(int(r, 0, 1000));
      case 1:
        return `${int(r, 0, 99)}.${int(r, 0, 99)}`;
      case 2:
        return quote(chance(r, 0.5) ? randomNastyString(r) : pick(r, ['上海', 'app', '2024-03-01', 'month', 'week']));
      case 3:
        return chance(r, 0.8) ? `[${pick(r, TITLES)}]` : `{${pick(r, FIELD_IDS)}}`;
      default:
        return pick(r, ['NULL', 'TRUE', '[金额]', '[下单时间]', '[省份]']);
    }
  };
  let text: string;
  if (depth > 3 || chance(r, 0.3)) {
    text = leaf();
  } else {
    const sub = () => randomFormula(r, depth + 1);
    switch (int(r, 0, 8)) {
      case 0:
        text = `${sub()} ${pick(r, ['+', '-', '*', '/', '=', '<>', '!=', '<', '>=', 'AND', 'OR'])} ${sub()}`;
        break;
      case 1:
        text = `${pick(r, ['-', 'NOT ', '- -', '+'])}${sub()}`;
        break;
      case 2:
      case 3: {
        const name = pick(r, FUNCTIONS);
        const args = name === 'DATE_TRUNC' ? [quote(pick(r, ['month', 'week', 'century'])), sub()] : Array.from({ length: int(r, 0, 3) }, sub);
        text = `${chance(r, 0.5) ? name : name.toLowerCase()}(${chance(r, 0.1) ? 'DISTINCT ' : ''}${chance(r, 0.05) ? '*' : args.join(', ')})`;
        break;
      }
      case 4:
        text = `CASE WHEN ${sub()} THEN ${sub()}${chance(r, 0.5) ? ` ELSE ${sub()}` : ''} END`;
        break;
      case 5:
        text = `${sub()} ${chance(r, 0.3) ? 'NOT ' : ''}IN (${Array.from({ length: int(r, 1, 3) }, sub).join(', ')})`;
        break;
      case 6:
        text = `${sub()} BETWEEN ${sub()} AND ${sub()}`;
        break;
      case 7:
        text = `${sub()} IS ${chance(r, 0.5) ? 'NOT ' : ''}NULL`;
        break;
      default:
        text = `(${sub()})`;
    }
  }
  if (depth === 0 && chance(r, 0.08)) {
    const at = int(r, 0, text.length);
    text = text.slice(0, at) + pick(r, chance(r, 0.5) ? GARBAGE : NASTY) + text.slice(at);
  }
  return text;
}

/** The orders cube plus two random computed fields: 公式 (99) and 公式2 (98, may reference 公式). */
export function randomModel(r: Random): CubeModelInput {
  const type = () => pick(r, ['NUMBER', 'STRING', 'DATETIME'] as const);
  return {
    ...ordersModel,
    fields: [
      ...ordersModel.fields,
      { id: 99, columnAttr: 'VIRTUAL', columnTitle: '公式', columnFormula: randomFormula(r), viewDataType: type() },
      {
        id: 98,
        columnAttr: 'VIRTUAL',
        columnTitle: '公式2',
        columnFormula: chance(r, 0.5) ? `[公式] + ${int(r, 0, 9)}` : randomFormula(r),
        viewDataType: type(),
      },
    ],
  };
}

export function randomRequest(r: Random): CubeQueryRequest {
  const pickId = () => (chance(r, 0.03) ? 404 : pick(r, FIELD_IDS));
  const dimensions = Array.from({ length: int(r, 0, 3) }, () => ({ fieldId: pickId(), granularity: chance(r, 0.15) ? pick(r, TIME_UNITS) : undefined }));
  const measures = Array.from({ length: int(r, 0, 3) }, () => ({
    fieldId: pickId(),
    aggregation: chance(r, 0.5) ? pick(r, ['SUM', 'AVG', 'COUNT', 'COUNT_DISTINCT', 'APPROX_COUNT_DISTINCT', 'MAX', 'MIN'] as const) : undefined,
  }));
  const detail = chance(r, 0.1);
  const sortable = [...dimensions, ...measures];
  return {
    dimensions,
    measures: detail ? [] : measures,
    detail,
    where: chance(r, 0.8) ? randomGroup(r) : undefined,
    having: !detail && chance(r, 0.4) ? randomGroup(r) : undefined,
    sort: sortable.length > 0 && chance(r, 0.5) ? [{ fieldId: pick(r, sortable).fieldId, direction: pick(r, ['ASC', 'DESC'] as const) }] : [],
    limit: chance(r, 0.5) ? int(r, 0, 10000) : undefined,
    offset: chance(r, 0.3) ? int(r, 0, 10000) : undefined,
    withTotal: chance(r, 0.3),
  };
}

// ---------- plausible: type-correct requests whose values and literals are hostile data ----------

const TEXT_FIELDS = [1, 2, 3, 7, 10];
const NUMBER_FIELDS = [4, 8, 11];
const nasty = (r: Random) => randomNastyString(r);

function plausibleItem(r: Random): NonNullable<FilterGroup['conditions']>[number] {
  const kind = int(r, 0, 2);
  if (kind === 0) {
    const fn = pick(r, ['eq', 'in', 'notIn', 'indexIn', 'like', 'gt', 'le', 'between', 'isnull'] as const);
    const many = fn === 'in' || fn === 'notIn' || fn === 'indexIn' || fn === 'between';
    return { cubeColumnId: pick(r, TEXT_FIELDS), conditions: [{ function: fn, values: Array.from({ length: many ? int(r, 2, 4) : 1 }, () => nasty(r)) }] };
  }
  if (kind === 1) {
    const fn = pick(r, ['eq', 'gt', 'ge', 'lt', 'le', 'between', 'in'] as const);
    return { cubeColumnId: pick(r, NUMBER_FIELDS), conditions: [{ function: fn, values: [int(r, -500, 500), String((r() - 0.5) * 1000), -0.25] }] };
  }
  const relative = chance(r, 0.5);
  const fn = pick(r, ['eq', 'gt', 'ge', 'lt', 'le', 'between'] as const);
  return {
    cubeColumnId: 5,
    dateType: pick(r, TIME_UNITS),
    conditions: [
      {
        function: fn,
        timeType: relative ? 'relative' : 'absolute',
        countType: pick(r, ['left', 'right'] as const),
        values: relative ? [int(r, 0, 30), int(r, 0, 3)] : ['2024-03-01', '2024-03-31 12:00'],
      },
    ],
  };
}

export function plausibleGroup(r: Random): FilterGroup {
  return {
    relation: pick(r, ['AND', 'OR'] as const),
    conditions: Array.from({ length: int(r, 1, 3) }, () => plausibleItem(r)),
    filters: Array.from({ length: int(r, 0, 2) }, () => ({
      relation: pick(r, ['AND', 'OR'] as const),
      conditions: Array.from({ length: int(r, 1, 2) }, () => plausibleItem(r)),
    })),
  };
}

/** A STRING-typed formula carrying hostile string literals. */
export function plausibleFormula(r: Random): string {
  const s = () => quote(nasty(r));
  return pick(r, [
    () => `CASE WHEN [省份] = ${s()} THEN ${s()} WHEN [金额] > ${int(r, 0, 99)} THEN [渠道] ELSE ${s()} END`,
    () => `CONCAT([省份], ${s()}, TO_STRING([金额]))`,
    () => `IF([渠道] IN (${s()}, ${s()}), ${s()}, UPPER(${s()}))`,
    () => `CASE [省份] WHEN ${s()} THEN REPLACE([渠道], ${s()}, ${s()}) END`,
    () => `COALESCE([省份], ${s()})`,
  ])();
}

export function plausibleModel(r: Random): CubeModelInput {
  return {
    ...ordersModel,
    fields: [
      ...ordersModel.fields,
      { id: 99, columnAttr: 'VIRTUAL', columnTitle: '公式', columnFormula: plausibleFormula(r), viewDataType: 'STRING' },
      {
        id: 98,
        columnAttr: 'VIRTUAL',
        columnTitle: '公式2',
        columnFormula: `SUM(CASE WHEN [公式] = ${quote(nasty(r))} THEN [金额] ELSE 0 END)`,
        viewDataType: 'NUMBER',
      },
    ],
  };
}

export function plausibleRequest(r: Random): CubeQueryRequest {
  const dimensions = [...new Set(Array.from({ length: int(r, 1, 3) }, () => pick(r, [...TEXT_FIELDS, 99])))].map((fieldId) => ({ fieldId }));
  if (chance(r, 0.3)) dimensions.push({ fieldId: 5, granularity: pick(r, TIME_UNITS) } as (typeof dimensions)[number]);
  const measures = [{ fieldId: pick(r, [...NUMBER_FIELDS, 9, 98]) }, { fieldId: pick(r, [3, 1, 99]), aggregation: 'COUNT_DISTINCT' as const }];
  return {
    dimensions,
    measures,
    where: plausibleGroup(r),
    having: chance(r, 0.5) ? { conditions: [{ cubeColumnId: pick(r, [4, 9, 98]), conditions: [{ function: 'gt', values: [int(r, -9, 9)] }] }] } : undefined,
    sort: [{ fieldId: measures[0]!.fieldId, direction: pick(r, ['ASC', 'DESC'] as const) }, { fieldId: dimensions[0]!.fieldId }],
    limit: int(r, 1, 1000),
    offset: chance(r, 0.5) ? int(r, 1, 1000) : undefined,
    withTotal: chance(r, 0.5),
  };
}
