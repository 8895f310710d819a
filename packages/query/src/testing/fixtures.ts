import type { CubeModelInput } from '@shutu/contracts';

/**
 * The test cube: telecom orders joined to users (the demo warehouse's shape).
 *   o = ods_order (province, channel, user_phone, amount, order_time, spid)
 *   u = dim_user in schema dw (phone, user_name, age)
 */
export const ordersModel: CubeModelInput = {
  tables: [
    { tableName: 'ods_order', tableAliasName: 'o' },
    { tableName: 'dim_user', tableAliasName: 'u', schema: 'dw' },
  ],
  joins: [{ joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'user_phone', targetKey: 'phone' }] }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 2, columnName: 'channel', columnTitle: '渠道', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 3, columnName: 'user_phone', columnTitle: '手机号', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 5, columnName: 'order_time', columnTitle: '下单时间', tableAliasName: 'o', viewDataType: 'DATETIME' },
    { id: 6, columnName: 'phone', columnTitle: '用户手机号', tableAliasName: 'u', viewDataType: 'STRING' },
    { id: 7, columnName: 'user_name', columnTitle: '用户名', tableAliasName: 'u', viewDataType: 'STRING' },
    { id: 8, columnName: 'age', columnTitle: '年龄', tableAliasName: 'u', viewDataType: 'NUMBER', aggregationType: 'AVG' },
    {
      id: 9,
      columnAttr: 'VIRTUAL',
      columnTitle: '客单价',
      columnFormula: 'SUM([金额]) / COUNT(DISTINCT [手机号])',
      viewDataType: 'NUMBER',
      dimensionType: 'ZHIBIAO',
    },
    { id: 10, columnAttr: 'VIRTUAL', columnTitle: '金额分档', columnFormula: "CASE WHEN [金额] >= 100 THEN '大额' ELSE '普通' END", viewDataType: 'STRING' },
    { id: 11, columnAttr: 'VIRTUAL', columnTitle: '含税金额', columnFormula: 'ROUND([金额] * 1.06, 2)', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
  ],
};

/** A single-table cube (ClickHouse-friendly: no joins). */
export const singleTableModel: CubeModelInput = {
  ...ordersModel,
  tables: [ordersModel.tables[0]!],
  joins: [],
  fields: ordersModel.fields.filter((f) => f.tableAliasName !== 'u'),
};

export const NOW = new Date('2024-03-15T10:30:00+08:00');
