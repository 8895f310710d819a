import type { ViewDataType } from '@shutu/contracts';

/**
 * The formula function catalogue: one signature per function, shared by every dialect.
 * A dialect lists how it renders each function it supports (dialects/*.ts); the functions
 * a dialect supports are its allow-list ("functions by data source type", spec 2 §7).
 */
export type FunctionCategory = 'aggregate' | 'math' | 'string' | 'date' | 'logic';

/** "Function attribute types" (spec 2 §7): the categories the function picker groups by. */
export const FUNCTION_CATEGORIES: readonly { value: FunctionCategory; label: string }[] = [
  { value: 'aggregate', label: '聚合函数' },
  { value: 'math', label: '数学函数' },
  { value: 'string', label: '字符串函数' },
  { value: 'date', label: '日期函数' },
  { value: 'logic', label: '逻辑函数' },
];

/** A result type, or `arg:N`: the type of the N-th argument (0-based). */
export type ReturnType = ViewDataType | `arg:${number}`;

export interface FunctionSpec {
  name: string;
  category: FunctionCategory;
  minArgs: number;
  maxArgs: number;
  returns: ReturnType;
  /** Aggregate functions: SUM AVG COUNT COUNT_DISTINCT MAX MIN. */
  aggregate?: boolean;
  /** Arguments that must be numbers (0-based). */
  numericArgs?: readonly number[];
  description: string;
  example: string;
}

const spec = (
  name: string,
  category: FunctionCategory,
  [minArgs, maxArgs]: [number, number],
  returns: ReturnType,
  description: string,
  example: string,
  extra: Partial<FunctionSpec> = {},
): FunctionSpec => ({ name, category, minArgs, maxArgs, returns, description, example, ...extra });

const VARIADIC = 32;

export const FUNCTION_CATALOGUE: readonly FunctionSpec[] = [
  spec('SUM', 'aggregate', [1, 1], 'NUMBER', '求和', 'SUM([金额])', { aggregate: true, numericArgs: [0] }),
  spec('AVG', 'aggregate', [1, 1], 'NUMBER', '平均值', 'AVG([金额])', { aggregate: true, numericArgs: [0] }),
  spec('COUNT', 'aggregate', [1, 1], 'NUMBER', '计数；COUNT(*) 计行数，COUNT(DISTINCT x) 去重计数', 'COUNT(DISTINCT [手机号])', { aggregate: true }),
  spec('COUNT_DISTINCT', 'aggregate', [1, 1], 'NUMBER', '去重计数', 'COUNT_DISTINCT([手机号])', { aggregate: true }),
  spec(
    'APPROX_COUNT_DISTINCT',
    'aggregate',
    [1, 1],
    'NUMBER',
    '近似去重计数（误差约2%，大表上快得多；不支持的数据源按精确去重计算）',
    'APPROX_COUNT_DISTINCT([手机号])',
    {
      aggregate: true,
    },
  ),
  spec('MAX', 'aggregate', [1, 1], 'arg:0', '最大值', 'MAX([下单时间])', { aggregate: true }),
  spec('MIN', 'aggregate', [1, 1], 'arg:0', '最小值', 'MIN([下单时间])', { aggregate: true }),
  spec('ABS', 'math', [1, 1], 'NUMBER', '绝对值', 'ABS([差额])', { numericArgs: [0] }),
  spec('ROUND', 'math', [1, 2], 'NUMBER', '四舍五入到指定小数位', 'ROUND([金额], 2)', { numericArgs: [0, 1] }),
  spec('CEIL', 'math', [1, 1], 'NUMBER', '向上取整', 'CEIL([金额])', { numericArgs: [0] }),
  spec('FLOOR', 'math', [1, 1], 'NUMBER', '向下取整', 'FLOOR([金额])', { numericArgs: [0] }),
  spec('MOD', 'math', [2, 2], 'NUMBER', '取余数', 'MOD([数量], 10)', { numericArgs: [0, 1] }),
  spec('POWER', 'math', [2, 2], 'NUMBER', '乘方', 'POWER([数量], 2)', { numericArgs: [0, 1] }),
  spec('SQRT', 'math', [1, 1], 'NUMBER', '平方根', 'SQRT([面积])', { numericArgs: [0] }),
  spec('CONCAT', 'string', [1, VARIADIC], 'STRING', '拼接字符串', "CONCAT([省份], '-', [地市])"),
  spec('LENGTH', 'string', [1, 1], 'NUMBER', '字符个数', 'LENGTH([产品名称])'),
  spec('UPPER', 'string', [1, 1], 'STRING', '转为大写', 'UPPER([编码])'),
  spec('LOWER', 'string', [1, 1], 'STRING', '转为小写', 'LOWER([编码])'),
  spec('SUBSTRING', 'string', [2, 3], 'STRING', '截取子串，起始位置从1开始', 'SUBSTRING([手机号], 1, 3)', { numericArgs: [1, 2] }),
  spec('TO_STRING', 'string', [1, 1], 'STRING', '转为字符串', "CONCAT(TO_STRING([数量]), '件')"),
  spec('TRIM', 'string', [1, 1], 'STRING', '去掉首尾空格', 'TRIM([名称])'),
  spec('REPLACE', 'string', [3, 3], 'STRING', '替换子串', "REPLACE([名称], '有限公司', '')"),
  spec('YEAR', 'date', [1, 1], 'NUMBER', '年份', 'YEAR([下单时间])'),
  spec('QUARTER', 'date', [1, 1], 'NUMBER', '季度（1-4）', 'QUARTER([下单时间])'),
  spec('MONTH', 'date', [1, 1], 'NUMBER', '月份（1-12）', 'MONTH([下单时间])'),
  spec('DAY', 'date', [1, 1], 'NUMBER', '日（1-31）', 'DAY([下单时间])'),
  spec('HOUR', 'date', [1, 1], 'NUMBER', '小时（0-23）', 'HOUR([下单时间])'),
  spec(
    'DATE_TRUNC',
    'date',
    [2, 2],
    'DATETIME',
    "截断到年、季度、月、周、日或小时：'year' 'quarter' 'month' 'week' 'day' 'hour'",
    "DATE_TRUNC('month', [下单时间])",
  ),
  spec('DAYS_BETWEEN', 'date', [2, 2], 'NUMBER', '两个日期相差的天数（后者减前者）', 'DAYS_BETWEEN([下单时间], [退订时间])'),
  spec('IF', 'logic', [3, 3], 'arg:1', '条件为真取第二个参数，否则取第三个', "IF([金额] > 100, '大额', '普通')"),
  spec('IFNULL', 'logic', [2, 2], 'arg:0', '为空时取第二个参数', 'IFNULL([金额], 0)'),
  spec('COALESCE', 'logic', [1, VARIADIC], 'arg:0', '取第一个非空参数', 'COALESCE([手机号], [备用号码])'),
  spec('NULLIF', 'logic', [2, 2], 'arg:0', '两参数相等时为空', 'NULLIF([数量], 0)'),
];

const BY_NAME = new Map(FUNCTION_CATALOGUE.map((f) => [f.name, f]));

export function functionSpec(name: string): FunctionSpec | undefined {
  return BY_NAME.get(name.toUpperCase());
}

/**
 * Functions lowered to dedicated tree nodes rather than dialect function calls; every
 * dialect supports them through its render hooks.
 */
export const STRUCTURAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'SUM',
  'AVG',
  'COUNT',
  'COUNT_DISTINCT',
  'APPROX_COUNT_DISTINCT',
  'MAX',
  'MIN',
  'CONCAT',
  'DATE_TRUNC',
  'IF',
]);
