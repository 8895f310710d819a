import type { CubeModelInput } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkFormula,
  compileCubeQuery,
  FUNCTION_CATALOGUE,
  FUNCTION_CATEGORIES,
  formulaHasAggregation,
  formulaParamRefs,
  functionsFor,
  paramValue,
  QueryError,
  type FormulaParams,
} from '../index.ts';
import { NOW, ordersModel } from '../testing/fixtures.ts';

const refusal = (fn: () => unknown): QueryError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
};

describe('checking a formula against the model', () => {
  it('infers the type and lists the fields read, through other computed fields', () => {
    const checked = checkFormula('[客单价] * 2 + MAX({4})', ordersModel, 'postgres');
    expect(checked.type).toBe('NUMBER');
    expect(checked.aggregate).toBe(true);
    expect([...checked.deps].sort()).toEqual(['3', '4', '9']);
    expect(checkFormula("CONCAT([省份], '-')", ordersModel).type).toBe('STRING');
    expect(checkFormula("DATE_TRUNC('month', [下单时间])", ordersModel).type).toBe('DATETIME');
    expect(checkFormula('[金额] > 1', ordersModel).type).toBe('BOOLEAN');
  });

  it.each<[string, number, string]>([
    ['[省份] + 1', 5, '“+”只能用于数值，日期请用日期函数，字符串请用CONCAT'],
    ['[下单时间] - 1', 7, '“-”只能用于数值，日期请用日期函数，字符串请用CONCAT'],
    ['-[省份]', 0, '负号只能用于数值'],
    ['SUM([省份])', 4, 'SUM 只能用于数值'],
    ['SUM(SUM([金额]))', 4, '聚合函数不能嵌套使用'],
    ['SUM([客单价])', 4, '聚合函数不能嵌套使用'],
    ['SUM([金额]) + [金额]', 12, '聚合函数之外的字段须放在聚合函数内'],
    ['[不存在] + 1', 0, '字段[不存在]不存在'],
    ['{404}', 0, '字段{404}不存在'],
    ['FOO(1)', 0, '未知的函数 FOO'],
    ["DATE_TRUNC('century', [下单时间])", 11, "时间粒度须为 'year'、'quarter'、'month'、'week'、'day' 或 'hour'"],
    ["DATE_TRUNC('month', [省份])", 20, 'DATE_TRUNC 只能用于日期'],
    ['ROUND(1, 2, 3)', 0, '函数 ROUND 的参数个数不正确'],
    ['ABS()', 0, '函数 ABS 的参数个数不正确'],
    ['SUM(DISTINCT [金额])', 0, 'DISTINCT 只能用于 COUNT'],
    ['MAX(*)', 0, '* 只能用于 COUNT'],
    ['ROUND([金额], [省份])', 12, '函数 ROUND 的第2个参数须为数值'],
    ['CONCAT([省份], 1)', 13, 'CONCAT 的参数须为字符串，请先用 TO_STRING 转换'],
    ["IF([金额] > 1, 'a', 2)", 18, 'IF 两个结果的类型须一致'],
    ["CASE WHEN [金额] > 1 THEN 'a' ELSE 2 END", 33, 'CASE 各分支的结果类型须一致'],
    ['[省份] = 1', 5, '比较的两边类型不一致'],
    ["[省份] IN ('a', 2)", 14, '比较的两边类型不一致'],
    ["[下单时间] > '2024-13-01'", 9, '日期格式不正确'],
  ])('%j is refused at %i', (formula, position, detail) => {
    const error = refusal(() => checkFormula(formula, ordersModel));
    expect(error.position).toBe(position);
    expect(error.message).toBe(`公式第${position + 1}个字符处有误：${detail}`);
  });

  it('allows only the functions of the dialect', () => {
    expect(checkFormula('TRIM([省份])', ordersModel, 'postgres').type).toBe('STRING');
    const error = refusal(() => checkFormula('1 + TRIM([省份])', ordersModel, 'clickhouse'));
    expect(error.message).toBe('公式第5个字符处有误：当前数据源不支持函数 TRIM');
    expect(error.position).toBe(4);
  });

  it('refuses reference cycles between computed fields', () => {
    const model: CubeModelInput = {
      ...ordersModel,
      fields: [
        ...ordersModel.fields,
        { id: 50, columnAttr: 'VIRTUAL', columnTitle: 'A', columnFormula: '[B] + 1', viewDataType: 'NUMBER' },
        { id: 51, columnAttr: 'VIRTUAL', columnTitle: 'B', columnFormula: '{50} * 2', viewDataType: 'NUMBER' },
        { id: 52, columnAttr: 'VIRTUAL', columnTitle: 'C', columnFormula: '[C]', viewDataType: 'NUMBER' },
      ],
    };
    expect(refusal(() => checkFormula('[A]', model)).message).toBe('计算字段【A】存在循环引用');
    expect(refusal(() => checkFormula('[C]', model)).message).toBe('计算字段【C】存在循环引用');
  });

  it('names the computed field whose own formula is broken', () => {
    const model: CubeModelInput = {
      ...ordersModel,
      fields: [...ordersModel.fields, { id: 60, columnAttr: 'VIRTUAL', columnTitle: '坏', columnFormula: '[金额] +', viewDataType: 'NUMBER' }],
    };
    const error = refusal(() => compileCubeQuery(model, { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 60 }] }, { dialect: 'duckdb', now: NOW }));
    expect(error.message).toBe('计算字段【坏】公式第7个字符处有误：公式不完整');
    expect(error.position).toBe(6);
    expect(error.field).toBe('坏');
  });
});

describe('formulaHasAggregation', () => {
  it.each<[string, boolean]>([
    ['SUM([金额])', true],
    ['count(*)', true],
    ['COUNT(DISTINCT [手机号]) / 2', true],
    ['IF([金额] > 1, MAX([金额]), 0)', true],
    ['[金额] * 2', false],
    ["'SUM([金额])'", false],
    ['ROUND([金额], 2)', false],
  ])('%s → %s', (formula, expected) => {
    expect(formulaHasAggregation(formula)).toBe(expected);
  });

  it('counts computed fields that aggregate when given the model', () => {
    expect(formulaHasAggregation('[客单价] * 2')).toBe(false);
    expect(formulaHasAggregation('[客单价] * 2', ordersModel)).toBe(true);
    expect(formulaHasAggregation('[含税金额] * 2', ordersModel)).toBe(false);
  });

  it('refuses a malformed formula with its position', () => {
    expect(refusal(() => formulaHasAggregation('SUM([金额]);')).position).toBe(9);
  });
});

describe('global parameters in formulas', () => {
  const model = (columnFormula: string): CubeModelInput => ({
    ...ordersModel,
    fields: [...ordersModel.fields, { id: 99, columnAttr: 'VIRTUAL', columnTitle: '公式', columnFormula, viewDataType: 'NUMBER' }],
  });
  const compile = (formula: string, params: FormulaParams, measure = false) =>
    compileCubeQuery(model(formula), measure ? { measures: [{ fieldId: 99 }] } : { detail: true, dimensions: [{ fieldId: 99 }] }, {
      dialect: 'postgres',
      now: NOW,
      params,
    });

  it('lists the references with their positions', () => {
    expect(formulaParamRefs("[金额] * ${rate} + IF([省份] = '${city}', ${rate}, 'abc ${x}')")).toEqual([
      { key: 'rate', pos: 7, quoted: false },
      { key: 'city', pos: 27, quoted: true },
      { key: 'rate', pos: 38, quoted: false },
    ]);
    expect(formulaParamRefs('[金额] + 1')).toEqual([]);
    expect(refusal(() => formulaParamRefs('[金额] * $rate')).position).toBe(7);
  });

  it('reads the value given: a list by its first element, nothing as null', () => {
    const params = { a: 1, b: 'x', c: [3, 4], d: [], e: null, f: '' };
    expect(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'constructor'].map((k) => paramValue(params, k))).toEqual([1, 'x', 3, null, null, null, null, null]);
  });

  it('treats parameters as constants when checking aggregation', () => {
    expect(formulaHasAggregation('[金额] * ${rate}')).toBe(false);
    expect(formulaHasAggregation('SUM([金额]) * ${rate}')).toBe(true);
    expect(checkFormula("SUM([金额]) * ${rate} + IF('${city}' = 'x', 1, 0)", ordersModel).aggregate).toBe(true);
    expect(checkFormula('${rate}', ordersModel).aggregate).toBe(false);
    const compiled = compile('SUM([金额]) * ${rate}', { rate: 3 }, true);
    expect(compiled.sql).toBe(
      'SELECT SUM("o"."amount") * CAST($1 AS DOUBLE PRECISION) AS "m0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
    );
    expect(compiled.params).toEqual([3]);
  });

  it('types a reference by its value: the quoted form is text, a value that is not a date is refused next to a date', () => {
    expect(checkFormula('[金额] * ${rate}', ordersModel).type).toBe('NUMBER');
    expect(refusal(() => checkFormula("[金额] * '${rate}'", ordersModel)).message).toBe(
      '公式第6个字符处有误：“*”只能用于数值，日期请用日期函数，字符串请用CONCAT',
    );
    expect(refusal(() => compile('[金额] * ${rate}', { rate: 'abc' })).position).toBe(5);
    const error = refusal(() => compile('IF([下单时间] > ${day}, 1, 0)', { day: 'soon' }));
    expect(error.message).toBe('计算字段【公式】公式第13个字符处有误：日期格式不正确');
    expect(compile('IF([下单时间] > ${day}, 1, 0)', {}).params).toEqual([]);
  });

  it('never writes a value into the SQL text', () => {
    const compiled = compile("IF([省份] = '${city}', 1, 0)", { city: "x' OR 1=1 --" });
    expect(compiled.sql).not.toContain('OR 1=1');
    expect(compiled.params).toEqual(["x' OR 1=1 --"]);
  });
});

describe('functions by data source type', () => {
  it('lists the catalogue entries each dialect renders', () => {
    expect(functionsFor('postgres').map((f) => f.name)).toEqual(FUNCTION_CATALOGUE.map((f) => f.name));
    expect(functionsFor('duckdb')).toHaveLength(FUNCTION_CATALOGUE.length);
    expect(functionsFor('mysql')).toHaveLength(FUNCTION_CATALOGUE.length);
    const clickhouse = functionsFor('clickhouse').map((f) => f.name);
    expect(clickhouse).not.toContain('TRIM');
    expect(clickhouse).toContain('COUNT_DISTINCT');
    expect(clickhouse).toHaveLength(FUNCTION_CATALOGUE.length - 1);
  });

  it('groups them by the categories the picker shows', () => {
    const categories = new Set(FUNCTION_CATEGORIES.map((c) => c.value));
    for (const f of FUNCTION_CATALOGUE) expect(categories.has(f.category)).toBe(true);
    expect(functionsFor('mysql').find((f) => f.name === 'SUM')).toMatchObject({ category: 'aggregate', aggregate: true, example: 'SUM([金额])' });
  });
});
