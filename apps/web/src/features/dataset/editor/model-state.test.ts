import { describe, expect, it } from 'vitest';
import type { DataSourceColumn } from '@shutu/contracts';
import type { EditorField, EditorModel } from './model-state.ts';
import { ALIAS_LENGTH, aggregationAllowed, fieldsFromColumns, moveField, randomAlias, renumber, titleTaken, toggleDimension } from './model-state.ts';
import { layoutTree, NODE_DX, ROW_HEIGHT } from './layout.ts';
import { checkNodeDelete, removeNode } from './tree-ops.ts';
import { buildPreviewBody, buildSavePayload, joinTypeMismatch } from './payload.ts';

const col = (name: string, viewDataType: DataSourceColumn['viewDataType'], comment = ''): DataSourceColumn => ({ name, comment, dbType: '', viewDataType });
const table = (alias: string, tableName = alias) => ({ tableName, tableAliasName: alias });

function orders(): EditorModel {
  const t = table('ooooo', 'orders');
  const fields = fieldsFromColumns([col('province', 'STRING', '省份'), col('amount', 'NUMBER', '金额'), col('phone', 'STRING')], t, []);
  return { tables: [t], joins: [], fields };
}

describe('randomAlias', () => {
  it('makes 5 lowercase letters, avoiding taken ones', () => {
    expect(randomAlias()).toMatch(new RegExp(`^[a-z]{${ALIAS_LENGTH}}$`));
    let n = 0;
    const seq = () => (n++ < 5 ? 0 : 0.99); // first try "aaaaa", then "zzzzz"
    expect(randomAlias(['aaaaa'], seq)).toBe('zzzzz');
  });
});

describe('fieldsFromColumns', () => {
  it('titles from comment or name, NUMBER → indicator, sortNum per group from 1', () => {
    const { fields } = orders();
    expect(fields.map((f) => [f.columnTitle, f.dimensionType, f.sortNum, f.aggregationType])).toEqual([
      ['省份', 'WEIDU', 1, 'SUM'],
      ['金额', 'ZHIBIAO', 1, 'SUM'],
      ['phone', 'WEIDU', 2, 'SUM'],
    ]);
    expect(fields.every((f) => typeof f.id === 'string' && /[a-z]/.test(f.id))).toBe(true);
  });

  it('appends 1 to a taken title and hides it when the type matches (spec §4)', () => {
    const m = orders();
    const more = fieldsFromColumns([col('province', 'STRING', '省份'), col('amount', 'STRING', '金额')], table('uuuuu', 'users'), m.fields);
    expect(more.map((f) => [f.columnTitle, f.hiddenStatus, f.sortNum])).toEqual([
      ['省份1', 1, 3],
      ['金额1', 0, 4],
    ]);
  });
});

describe('sortNum', () => {
  it('renumbers each group from 1', () => {
    const fs = orders().fields.map((f, i) => ({ ...f, sortNum: (i + 1) * 10 }));
    expect(renumber(fs).map((f) => f.sortNum)).toEqual([1, 1, 2]);
  });
  it('toggling moves the field to the end of the other group and renumbers', () => {
    const fs = orders().fields;
    const out = toggleDimension(fs, fs[0]!.id);
    const byTitle = Object.fromEntries(out.map((f) => [f.columnTitle, [f.dimensionType, f.sortNum]]));
    expect(byTitle).toEqual({ 省份: ['ZHIBIAO', 2], 金额: ['ZHIBIAO', 1], phone: ['WEIDU', 1] });
  });
  it('moves within a group', () => {
    const fs = orders().fields;
    const out = moveField(fs, fs[2]!.id, 0);
    expect(
      out
        .filter((f) => f.dimensionType === 'WEIDU')
        .sort((a, b) => a.sortNum - b.sortNum)
        .map((f) => f.columnTitle),
    ).toEqual(['phone', '省份']);
  });
});

describe('titles and aggregation', () => {
  it('refuses a title another field has', () => {
    const fs = orders().fields;
    expect(titleTaken(fs, '金额', fs[0]!.id)).toBe(true);
    expect(titleTaken(fs, '省份', fs[0]!.id)).toBe(false);
  });
  it('offers aggregation for number indicators, not for aggregating computed fields', () => {
    const base = { dimensionType: 'ZHIBIAO', viewDataType: 'NUMBER', columnAttr: 'NORMAL', virtualAggregationStatus: 0 } as const;
    expect(aggregationAllowed(base)).toBe(true);
    expect(aggregationAllowed({ ...base, viewDataType: 'STRING' })).toBe(false);
    expect(aggregationAllowed({ ...base, columnAttr: 'VIRTUAL', virtualAggregationStatus: 1 })).toBe(false);
  });
});

const key = (sourceKey: string, targetKey: string) => ({ sourceKey, targetKey, sourceKeyVtState: 0 as const, targetKeyVtState: 0 as const });

describe('layoutTree', () => {
  const tables = [table('a'), table('b'), table('c'), table('d')];
  const joins = [
    { joinType: 'LEFT_JOIN' as const, source: 'a', target: 'b', joinKeys: [key('x', 'x')] },
    { joinType: 'LEFT_JOIN' as const, source: 'b', target: 'c', joinKeys: [key('x', 'x')] },
    { joinType: 'LEFT_JOIN' as const, source: 'a', target: 'd', joinKeys: [key('x', 'x')] },
  ];
  it('places depth × 270 across and one row per leaf', () => {
    const pos = Object.fromEntries(layoutTree(tables, joins).map((n) => [n.id, [n.x, n.y]]));
    expect(pos).toEqual({ a: [0, 0], b: [NODE_DX, 0], c: [2 * NODE_DX, 0], d: [NODE_DX, ROW_HEIGHT] });
    expect(ROW_HEIGHT).toBe(80);
  });
  it('adds a drop slot as the last child of every node', () => {
    const slots = layoutTree([table('a')], [], true);
    expect(slots.map((n) => [n.id, n.x, n.y])).toEqual([
      ['a', 0, 0],
      ['placeholder:a', NODE_DX, 0],
    ]);
  });
  it('node delete: refused with children; computed fields go along', () => {
    const fields = [{ id: 'v', columnAttr: 'VIRTUAL', tableAliasName: 'c', columnTitle: '算' } as unknown as EditorField];
    const model = { tables, joins, fields };
    expect(checkNodeDelete(model, 'b')).toEqual({ ok: false, reason: 'children' });
    expect(checkNodeDelete(model, 'c')).toEqual({ ok: true, computed: fields });
    const after = removeNode(model, 'c');
    expect(after.tables.map((t) => t.tableAliasName)).toEqual(['a', 'b', 'd']);
    expect(after.joins).toHaveLength(2);
    expect(after.fields).toHaveLength(0);
  });
});

describe('payloads', () => {
  it('builds the first save with groups, and an edit with its id', () => {
    const m = orders();
    const add = buildSavePayload(
      m,
      { cubeName: ' 订单 ', workspaceId: 3, remark: '' },
      { id: null, datasourceId: 7, perm: { publicStatus: 0, dataPermIdList: [4, 5] } },
    );
    expect(add.cubeData).toMatchObject({ cubeName: '订单', workspaceId: 3, remark: null, publicStatus: 0 });
    expect(add).toMatchObject({ datasourceId: 7, dataPermIdList: [4, 5], orderByList: [] });
    expect(add.id).toBeUndefined();
    expect(add.columnList).toHaveLength(3);
    const edit = buildSavePayload(m, { cubeName: 'x', workspaceId: 3, remark: 'r' }, { id: 9, datasourceId: 7, saved: { filterJson: null, orderByList: [] } });
    expect(edit).toMatchObject({ id: 9, cubeData: { id: 9 } });
    expect(edit.dataPermIdList).toBeUndefined();
    expect(edit.cubeData.publicStatus).toBeUndefined();
  });
  it('warns on a join key type mismatch', () => {
    const m = orders();
    const u = table('uuuuu', 'users');
    const uf = fieldsFromColumns([col('phone', 'NUMBER', '用户手机')], u, m.fields);
    const model: EditorModel = {
      tables: [...m.tables, u],
      joins: [{ joinType: 'LEFT_JOIN', source: 'ooooo', target: 'uuuuu', joinKeys: [key('phone', 'phone')] }],
      fields: [...m.fields, ...uf],
    };
    expect(joinTypeMismatch(model)).toBe('字段【phone】与【用户手机】的数据类型不一致，无法关联，请检查');
  });
  it('previews the visible fields as a detail request', () => {
    const m = orders();
    m.fields[2] = { ...m.fields[2]!, hiddenStatus: 1 };
    const body = buildPreviewBody(m, 7, null)!;
    expect(body.request).toMatchObject({ detail: true, limit: 100 });
    expect(body.request.dimensions!.map((d) => d.fieldId)).toEqual([m.fields[0]!.id, m.fields[1]!.id]);
    expect(buildPreviewBody({ tables: [], joins: [], fields: [] }, 7, null)).toBeNull();
  });
});
