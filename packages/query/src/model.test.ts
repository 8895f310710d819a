import type { CubeJoin, CubeModelInput } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { buildModel, checkJoins, compileCubeQuery, QueryError } from './index.ts';
import { NOW, ordersModel } from './testing/fixtures.ts';

const refusal = (fn: () => unknown): QueryError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
};
const withJoins = (joins: CubeJoin[]): CubeModelInput => ({ ...ordersModel, joins });
const threeTables: CubeModelInput = {
  tables: [
    { tableName: 'ods_order', tableAliasName: 'o' },
    { tableName: 'dim_user', tableAliasName: 'u' },
    { tableName: 'dim_area', tableAliasName: 'a' },
  ],
  joins: [
    // Listed child-first: the model puts joins in tree order.
    { joinType: 'INNER_JOIN', source: 'u', target: 'a', joinKeys: [{ sourceKey: 'area', targetKey: 'code' }] },
    { joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'user_phone', targetKey: 'phone' }] },
  ],
  fields: [
    { id: 1, columnName: 'user_phone', columnTitle: '手机号', tableAliasName: 'o' },
    { id: 2, columnName: 'phone', columnTitle: '用户手机号', tableAliasName: 'u' },
    { id: 3, columnName: 'area', columnTitle: '地区编码', tableAliasName: 'u' },
    { id: 4, columnName: 'code', columnTitle: '编码', tableAliasName: 'a' },
    { id: 5, columnName: 'name', columnTitle: '地区', tableAliasName: 'a' },
  ],
};

describe('cube model', () => {
  it('orders joins as a tree from the first table', () => {
    const model = buildModel(threeTables);
    expect(model.root.alias).toBe('o');
    expect(model.joins.map((j) => `${j.source}->${j.target}`)).toEqual(['o->u', 'u->a']);
    const { sql } = compileCubeQuery(threeTables, { dimensions: [{ fieldId: 5 }] }, { dialect: 'postgres', now: NOW });
    expect(sql).toBe(
      'SELECT "a"."name" AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dim_user" AS "u" ON "o"."user_phone" = "u"."phone" INNER JOIN "dim_area" AS "a" ON "u"."area" = "a"."code" GROUP BY 1',
    );
  });

  it.each<[string, CubeModelInput, string]>([
    ['no tables', { tables: [], fields: [] }, '请先添加数据表'],
    ['a repeated alias', { ...ordersModel, tables: [ordersModel.tables[0]!, ordersModel.tables[0]!] }, '表别名【o】重复'],
    ['a join to an unknown table', withJoins([{ source: 'o', target: 'x', joinKeys: [{ sourceKey: 'a', targetKey: 'b' }] }]), '关联的表【x】不存在'],
    ['a table nothing joins', withJoins([]), '表【u】没有与其他表关联'],
    [
      'a table joined twice',
      { ...threeTables, joins: [...(threeTables.joins ?? []), { source: 'a', target: 'u', joinKeys: [{ sourceKey: 'code', targetKey: 'area' }] }] },
      '表【u】没有与其他表关联',
    ],
    ['a join without keys', withJoins([{ source: 'o', target: 'u', joinKeys: [] }]), '请补充连接字段'],
    ['a key with one side', withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'user_phone', targetKey: ' ' }] }]), '请补充连接字段'],
    [
      'a repeated title',
      { ...ordersModel, fields: [...ordersModel.fields, { id: 70, columnName: 'x', columnTitle: '省份', tableAliasName: 'o' }] },
      '字段展示名重复',
    ],
    [
      'a repeated id',
      { ...ordersModel, fields: [...ordersModel.fields, { id: '1', columnName: 'x', columnTitle: '新', tableAliasName: 'o' }] },
      '字段编号【1】重复',
    ],
    ['a column on no table', { ...ordersModel, fields: [{ id: 1, columnName: 'x', columnTitle: 'X', tableAliasName: 'zz' }] }, '字段【X】所在的表不存在'],
    ['a computed field without formula', { ...ordersModel, fields: [{ id: 1, columnAttr: 'VIRTUAL', columnTitle: 'X', columnFormula: ' ' }] }, '请补充完整'],
    ['a table name with NUL', { ...ordersModel, tables: [{ tableName: 'a\0b', tableAliasName: 'o' }], joins: [] }, '名称【a?b】不合法'],
  ])('refuses %s', (_, input, message) => {
    expect(refusal(() => buildModel(input)).message).toContain(message);
  });
});

describe('join keys', () => {
  it('refuses a key pair of different data types with the editor warning', () => {
    const model = withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'amount', targetKey: 'phone' }] }]);
    const error = refusal(() => checkJoins(model));
    expect(error.message).toBe('字段【金额】与【用户手机号】的数据类型不一致，无法关联，请检查');
    expect(error.kind).toBe('join');
    expect(error.status).toBe(400);
    // The same check runs at compile time ("repeated at save and blocks it").
    expect(refusal(() => compileCubeQuery(model, { dimensions: [{ fieldId: 1 }] }, { dialect: 'mysql', now: NOW })).message).toBe(error.message);
  });

  it('types computed keys by their formula', () => {
    const ok = withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'TO_STRING([金额])', sourceKeyVtState: 1, targetKey: 'phone' }] }]);
    expect(() => checkJoins(ok)).not.toThrow();
    const bad = withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'user_phone', targetKey: '[年龄] + 1', targetKeyVtState: 1 }] }]);
    expect(refusal(() => checkJoins(bad)).message).toBe('字段【手机号】与【[年龄] + 1】的数据类型不一致，无法关联，请检查');
  });

  it('refuses unknown key columns and keys over the wrong table', () => {
    expect(refusal(() => checkJoins(withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'nope', targetKey: 'phone' }] }]))).message).toBe(
      '连接字段【nope】不存在',
    );
    // phone belongs to u, not o: a column key names a column of its own side's table.
    expect(refusal(() => checkJoins(withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'phone', targetKey: 'phone' }] }]))).message).toBe(
      '连接字段【phone】不存在',
    );
    const wrongSide = withJoins([
      { source: 'o', target: 'u', joinKeys: [{ sourceKey: 'user_phone', targetKey: "CONCAT([手机号], '')", targetKeyVtState: 1 }] },
    ]);
    expect(refusal(() => checkJoins(wrongSide)).message).toBe("连接字段【CONCAT([手机号], '')】不属于关联的表");
    const aggregate = withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'MAX([手机号])', sourceKeyVtState: 1, targetKey: 'phone' }] }]);
    expect(refusal(() => checkJoins(aggregate)).message).toBe('连接字段【MAX([手机号])】不属于关联的表');
  });

  it('checks key formulas against the dialect when one is given', () => {
    const model = withJoins([{ source: 'o', target: 'u', joinKeys: [{ sourceKey: 'TRIM([手机号])', sourceKeyVtState: 1, targetKey: 'phone' }] }]);
    expect(() => checkJoins(model, 'duckdb')).not.toThrow();
    expect(refusal(() => checkJoins(model, 'clickhouse')).message).toContain('当前数据源不支持函数 TRIM');
  });
});
