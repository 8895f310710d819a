import type { CubeModelInput, CubeQueryRequest, FilterFunction, FilterGroup } from '@shutu/contracts';
import type { LoadColumn, LoadRow } from '../types.ts';

/**
 * The shared fixture: one small orders table (and its users) loaded with bulkLoad into every
 * engine, and cube requests compiled by @shutu/query for each driver's dialect. Values are
 * chosen so every engine can agree exactly: amounts are multiples of 0.5 (sums are exact in
 * binary floating point), text sorts by code point everywhere (PostgreSQL C.UTF-8, MariaDB
 * utf8mb4_bin for loaded tables, DuckDB and ClickHouse bytes), ties in sorted pages are broken.
 */

export const ORDER_COLUMNS: LoadColumn[] = [
  { name: 'order_id', type: 'INTEGER', comment: '订单号' },
  { name: 'province', type: 'STRING', comment: '省份' },
  { name: 'channel', type: 'STRING', comment: '渠道' },
  { name: 'user_phone', type: 'STRING', comment: '手机号' },
  { name: 'product', type: 'STRING', comment: '产品' },
  { name: 'amount', type: 'NUMBER', comment: '金额' },
  { name: 'order_time', type: 'DATETIME', comment: '下单时间' },
];

export const USER_COLUMNS: LoadColumn[] = [
  { name: 'phone', type: 'STRING', comment: '手机号' },
  { name: 'user_name', type: 'STRING', comment: '用户名' },
  { name: 'age', type: 'NUMBER', comment: '年龄' },
];

const PROVINCES = ['浙江', '江苏', '上海', '广东'];
const CHANNELS = ['app', 'web', 'store', null];
export const PRODUCTS = ['5G畅享套餐', "O'Brien 流量包", '国际漫游 "全球通"', '反斜杠\\套餐', '表情🚀包', '100%_满意'];
const phone = (i: number) => `1380000${String(i).padStart(4, '0')}`;

/** A seeded linear congruential generator: the same rows on every run. */
function lcg(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state >>> 8) % n;
  };
}

export interface Order {
  order_id: number;
  province: string;
  channel: string | null;
  user_phone: string;
  product: string;
  amount: number;
  order_time: string;
}

export const ORDERS: Order[] = (() => {
  const rand = lcg(20240315);
  return Array.from({ length: 80 }, (_, i) => {
    const day = 1 + rand(120); // 2024-01-01 … 2024-04-29
    const date = new Date(Date.UTC(2024, 0, day, rand(24), rand(60), rand(60)));
    return {
      order_id: 1001 + i,
      province: PROVINCES[rand(PROVINCES.length)]!,
      channel: CHANNELS[rand(CHANNELS.length)]!,
      user_phone: phone(1 + rand(12)),
      product: PRODUCTS[rand(PRODUCTS.length)]!,
      amount: (1 + rand(400)) / 2,
      order_time: date.toISOString().slice(0, 19).replace('T', ' '),
    };
  });
})();

export const ORDER_ROWS: LoadRow[] = ORDERS.map((o) => [o.order_id, o.province, o.channel, o.user_phone, o.product, o.amount, o.order_time]);

/** Users 1–10; phones 11 and 12 order without a user row (LEFT JOIN gives NULL). */
export const USER_ROWS: LoadRow[] = Array.from({ length: 10 }, (_, i) => [phone(i + 1), `用户${String.fromCharCode(0x7532 + i)}`, 20 + ((i * 7) % 40)]);

export const NOW = new Date('2024-05-15T10:30:00+08:00');

export function fixtureModel(schema: string): CubeModelInput {
  return {
    tables: [
      { tableName: 'fx_orders', tableAliasName: 'o', schema },
      { tableName: 'fx_users', tableAliasName: 'u', schema },
    ],
    joins: [{ joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'user_phone', targetKey: 'phone' }] }],
    fields: [
      { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o', viewDataType: 'STRING' },
      { id: 2, columnName: 'channel', columnTitle: '渠道', tableAliasName: 'o', viewDataType: 'STRING' },
      { id: 3, columnName: 'user_phone', columnTitle: '手机号', tableAliasName: 'o', viewDataType: 'STRING' },
      { id: 4, columnName: 'product', columnTitle: '产品', tableAliasName: 'o', viewDataType: 'STRING' },
      { id: 5, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
      { id: 6, columnName: 'order_time', columnTitle: '下单时间', tableAliasName: 'o', viewDataType: 'DATETIME' },
      { id: 7, columnName: 'order_id', columnTitle: '订单号', tableAliasName: 'o', viewDataType: 'NUMBER', aggregationType: 'COUNT' },
      { id: 8, columnName: 'user_name', columnTitle: '用户名', tableAliasName: 'u', viewDataType: 'STRING' },
      { id: 9, columnName: 'age', columnTitle: '年龄', tableAliasName: 'u', viewDataType: 'NUMBER', aggregationType: 'AVG' },
      {
        id: 10,
        columnAttr: 'VIRTUAL',
        columnTitle: '客单价',
        columnFormula: 'SUM([金额]) / COUNT(DISTINCT [手机号])',
        viewDataType: 'NUMBER',
        dimensionType: 'ZHIBIAO',
      },
      { id: 11, columnAttr: 'VIRTUAL', columnTitle: '金额分档', columnFormula: "CASE WHEN [金额] >= 100 THEN '大额' ELSE '普通' END", viewDataType: 'STRING' },
      { id: 12, columnAttr: 'VIRTUAL', columnTitle: '含税金额', columnFormula: 'ROUND([金额] * 1.06, 2)', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
      { id: 14, columnName: 'phone', columnTitle: '用户手机号', tableAliasName: 'u', viewDataType: 'STRING' },
      { id: 13, columnAttr: 'VIRTUAL', columnTitle: '渠道产品', columnFormula: "CONCAT(IFNULL([渠道], '无'), '·', [产品])", viewDataType: 'STRING' },
    ],
  };
}

const where = (cubeColumnId: number, fn: FilterFunction, values: (string | number)[] = [], extra: object = {}): FilterGroup => ({
  conditions: [{ cubeColumnId, conditions: [{ function: fn, values, ...extra }] }],
});

/** The requests every engine must answer identically. `ordered`: rows compare in order. */
export const REQUESTS: { name: string; request: CubeQueryRequest; ordered: boolean }[] = [
  {
    name: 'group by with count, sum, count distinct, sorted by a measure',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 7 }, { fieldId: 5 }, { fieldId: 3, aggregation: 'COUNT_DISTINCT' }],
      sort: [{ fieldId: 5, direction: 'DESC' }],
    },
    ordered: true,
  },
  {
    name: 'two dimensions, IN and a case-insensitive LIKE with a quote',
    request: {
      dimensions: [{ fieldId: 1 }, { fieldId: 2 }],
      measures: [{ fieldId: 5 }],
      where: {
        conditions: [
          { cubeColumnId: 2, conditions: [{ function: 'in', values: ['app', 'web'] }] },
          { cubeColumnId: 4, conditions: [{ function: 'like', values: ["o'brien"] }] },
        ],
      },
      sort: [{ fieldId: 1 }, { fieldId: 2 }],
    },
    ordered: true,
  },
  {
    name: 'eq on values with double quotes, a backslash, %, _ and an emoji (OR)',
    request: {
      dimensions: [{ fieldId: 4 }],
      measures: [{ fieldId: 5 }, { fieldId: 7 }],
      where: {
        relation: 'OR',
        conditions: [
          {
            cubeColumnId: 4,
            connectType: 'or',
            conditions: [
              { function: 'eq', values: ['国际漫游 "全球通"'] },
              { function: 'eq', values: ['反斜杠\\套餐'] },
            ],
          },
          { cubeColumnId: 4, conditions: [{ function: 'like', values: ['%_满'] }] },
          { cubeColumnId: 4, conditions: [{ function: 'eq', values: ['表情🚀包'] }] },
        ],
      },
      sort: [{ fieldId: 4 }],
    },
    ordered: true,
  },
  {
    name: 'left join: a dimension of the joined table (NULL for missing users), AVG',
    request: { dimensions: [{ fieldId: 8 }], measures: [{ fieldId: 5 }, { fieldId: 9 }, { fieldId: 7 }], sort: [{ fieldId: 8 }] },
    ordered: true,
  },
  {
    name: 'join with a where on the joined table, and notIn',
    request: {
      dimensions: [{ fieldId: 8 }, { fieldId: 1 }],
      measures: [
        { fieldId: 5, aggregation: 'MAX' },
        { fieldId: 5, aggregation: 'MIN' },
      ],
      where: {
        conditions: [
          { cubeColumnId: 9, conditions: [{ function: 'ge', values: [30] }] },
          { cubeColumnId: 1, conditions: [{ function: 'notIn', values: ['上海'] }] },
        ],
      },
    },
    ordered: false,
  },
  {
    name: 'detail rows sorted, limit and offset',
    request: {
      detail: true,
      dimensions: [{ fieldId: 7 }, { fieldId: 4 }, { fieldId: 5 }, { fieldId: 6 }],
      sort: [{ fieldId: 5, direction: 'DESC' }, { fieldId: 7 }],
      limit: 5,
      offset: 3,
    },
    ordered: true,
  },
  {
    name: 'month granularity, absolute between months',
    request: {
      dimensions: [{ fieldId: 6, granularity: 'MONTH' }],
      measures: [{ fieldId: 7 }, { fieldId: 5 }],
      where: where(6, 'between', ['2024-02', '2024-03']),
      sort: [{ fieldId: 6 }],
    },
    ordered: true,
  },
  {
    name: 'relative time: last month, and the day granularity',
    request: {
      dimensions: [{ fieldId: 6, granularity: 'DAY' }],
      measures: [{ fieldId: 7 }],
      where: where(6, 'eq', [1], { timeType: 'relative', countType: 'left', dateType: 'MONTH' }),
      sort: [{ fieldId: 6 }],
    },
    ordered: true,
  },
  {
    name: 'having on an aggregate',
    request: { dimensions: [{ fieldId: 3 }], measures: [{ fieldId: 5 }], having: where(5, 'gt', [800]), sort: [{ fieldId: 3 }] },
    ordered: true,
  },
  {
    name: 'computed fields: CASE dimension, aggregate formula, ROUND, CONCAT',
    request: { dimensions: [{ fieldId: 11 }, { fieldId: 13 }], measures: [{ fieldId: 10 }, { fieldId: 12 }], sort: [{ fieldId: 11 }, { fieldId: 13 }] },
    ordered: true,
  },
  {
    name: 'isnull, indexIn and the total count',
    request: {
      dimensions: [{ fieldId: 1 }, { fieldId: 4 }],
      measures: [{ fieldId: 7 }],
      where: {
        conditions: [
          { cubeColumnId: 2, conditions: [{ function: 'isnull' }] },
          { cubeColumnId: 4, conditions: [{ function: 'indexIn', values: ['套餐', '包'] }] },
        ],
      },
      sort: [{ fieldId: 1 }, { fieldId: 4 }],
      limit: 4,
      withTotal: true,
    },
    ordered: true,
  },
  {
    name: 'nested OR group inside AND, between on numbers',
    request: {
      dimensions: [{ fieldId: 2 }],
      measures: [{ fieldId: 7 }],
      where: {
        relation: 'AND',
        conditions: [{ cubeColumnId: 5, conditions: [{ function: 'between', values: [20, 150] }] }],
        filters: [
          {
            relation: 'OR',
            conditions: [
              { cubeColumnId: 1, conditions: [{ function: 'eq', values: ['浙江'] }] },
              { cubeColumnId: 2, conditions: [{ function: 'notnull' }] },
            ],
          },
        ],
      },
      sort: [{ fieldId: 2 }],
    },
    ordered: true,
  },
  {
    // DuckDB reads it from a HyperLogLog sketch in SQL (near exact at these counts), ClickHouse
    // with uniq, PostgreSQL and MySQL count exactly: the same numbers here, and the other
    // measures (recombined from the sketch's partials on DuckDB) exact everywhere.
    name: '近似去重计数 beside a sum and a count, sorted by it, with a HAVING on it',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 3, aggregation: 'APPROX_COUNT_DISTINCT' }, { fieldId: 5 }, { fieldId: 7 }],
      having: { conditions: [{ cubeColumnId: 3, aggregation: 'APPROX_COUNT_DISTINCT', conditions: [{ function: 'ge', values: [1] }] }] },
      sort: [
        { fieldId: 3, aggregation: 'APPROX_COUNT_DISTINCT', direction: 'DESC' },
        { fieldId: 1, direction: 'ASC' },
      ],
    },
    ordered: true,
  },
];

/** Audience rules for the set operations: phones ordering by app, phones ordering by web. */
export const AUDIENCE_RULES: CubeQueryRequest[] = [
  { dimensions: [{ fieldId: 3 }], where: where(2, 'eq', ['app']) },
  { dimensions: [{ fieldId: 3 }], where: where(2, 'eq', ['web']) },
];
