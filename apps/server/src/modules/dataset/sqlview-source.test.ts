import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetSave } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call, uniqueAccount } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * SQL views as dataset sources (issue 28, docs/datasets.md "SQL views as tables"): an analyst's
 * view over granted tables is a table to the dataset — columns from its statement, joinable,
 * read by computed fields — and is read through the same grants as the tables it reads.
 */
const kinds = await storeKinds();
type Row = Record<string, unknown>;

describe.each(kinds)('SQL views as dataset tables, on %s', (kind) => {
  let w: DatasetWorld;
  let analyst: Headers;
  let outsider: Headers;
  let analystGroup: number;
  let workspaceId: number;
  const viewName = `V_SQL_${Date.now().toString().slice(-12)}`;

  const viewDataset = (): DatasetSave => ({
    cubeData: {
      cubeName: uniqueAccount('省份汇总'),
      workspaceId,
      cubeTableNames: [
        { tableName: viewName, tableAliasName: 'v', type: 'VIEW' },
        { tableName: 'provinces', tableAliasName: 'p', type: 'TABLE' },
      ],
      linksJoin: [{ joinType: 'INNER_JOIN', source: 'v', target: 'p', joinKeys: [{ sourceKey: 'province', targetKey: 'province_name' }] }],
      publicStatus: 0,
    },
    datasourceId: w.warehouseId,
    columnList: [
      { id: 'v_province', columnName: 'province', columnTitle: '省份', tableAliasName: 'v', columnAttr: 'NORMAL' },
      {
        id: 'v_total',
        columnName: 'total',
        columnTitle: '订购总额',
        tableAliasName: 'v',
        columnAttr: 'NORMAL',
        viewDataType: 'NUMBER',
        dimensionType: 'ZHIBIAO',
      },
      { id: 'p_region', columnName: 'region', columnTitle: '大区', tableAliasName: 'p', columnAttr: 'NORMAL' },
      { id: 'p_name', columnName: 'province_name', columnTitle: '省份名称', tableAliasName: 'p', columnAttr: 'NORMAL' },
      {
        id: 'c_wan',
        columnAttr: 'VIRTUAL',
        columnTitle: '总额万元',
        columnFormula: 'SUM({v_total}) / 10000',
        viewDataType: 'NUMBER',
        dimensionType: 'ZHIBIAO',
      },
    ],
    dataPermIdList: [analystGroup],
  });
  const saveView = (headers: Headers, sqlStatement: string, id?: number) =>
    call(w.server, 'POST', '/api/sqlview/views', {
      headers,
      payload: { datasourceId: w.warehouseId, sqlName: '省份汇总', viewName, sqlStatement, ...(id ? { id } : {}) },
    });
  const editorPreview = (headers: Headers, body: DatasetSave) =>
    call(w.server, 'POST', '/api/query/preview', {
      headers,
      payload: {
        datasourceId: body.datasourceId,
        model: { tables: body.cubeData.cubeTableNames, joins: body.cubeData.linksJoin, fields: body.columnList },
        request: { dimensions: [{ fieldId: 'p_region' }], measures: [{ fieldId: 'v_total' }], sort: [{ fieldId: 'p_region' }] },
      },
    });

  let viewId: number;
  let cubeId: number;

  beforeAll(async () => {
    w = await datasetWorld(kind);
    workspaceId = await w.category('视图数据集');
    const a = await w.member();
    analyst = a.headers;
    analystGroup = await w.group([a.id], ['orders', 'provinces']);
    const o = await w.member();
    outsider = o.headers;
    await w.group([o.id], ['provinces']);
    const saved = await saveView(analyst, 'select province, sum(amount) as total, count(*) as n from orders group by province;');
    expect(saved.status, saved.raw.body).toBe(200);
    viewId = saved.body.data.id;
  }, 120_000);
  afterAll(() => w?.close());

  it("lists the view's columns from its statement", async () => {
    const res = await call(w.server, 'GET', `/api/datasource/${w.warehouseId}/columns`, { headers: analyst, query: { tableName: viewName } });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data.map((c: { name: string; viewDataType: string }) => [c.name, c.viewDataType])).toEqual([
      ['province', 'STRING'],
      ['total', 'NUMBER'],
      ['n', 'NUMBER'],
    ]);
    const check = await call(w.server, 'POST', '/api/dataset/field-check', {
      headers: analyst,
      payload: { datasourceId: w.warehouseId, cubeTableNames: [{ tableName: viewName, tableAliasName: 'v' }], columnList: [] },
    });
    expect(check.status, check.raw.body).toBe(200);
    expect(check.body.data.map((f: { columnName: string }) => f.columnName)).toEqual(['province', 'total', 'n']);
  });

  it('previews, saves and reads a dataset joining the view to a table', async () => {
    const expected = await w.direct(
      'select p.region as r, sum(v.total) as t from (select province, sum(amount) as total from orders group by province) v join provinces p on v.province = p.province_name group by 1 order by 1',
    );
    const preview = await editorPreview(analyst, viewDataset());
    expect(preview.status, preview.raw.body).toBe(200);
    expect(preview.body.data.dataList.map((r: Row) => [r.d0, Number(r.m0)])).toEqual(expected.map((r) => [r.r, Number(r.t)]));

    const saved = await w.save(analyst, viewDataset());
    expect(saved.status, saved.raw.body).toBe(200);
    cubeId = saved.body.data;
    const fields = await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/fields`, { headers: analyst });
    const id = (title: string) => fields.body.data.find((f: { columnTitle: string }) => f.columnTitle === title).id;
    const read = await w.preview(analyst, cubeId, {
      dimensions: [{ fieldId: id('大区') }],
      measures: [{ fieldId: id('总额万元') }],
      sort: [{ fieldId: id('大区') }],
    });
    expect(read.status, read.raw.body).toBe(200);
    expect(read.body.data.dataList.map((r: Row) => [r.d0, Number(Number(r.m0).toFixed(4))])).toEqual(
      expected.map((r) => [r.r, Number((Number(r.t) / 10000).toFixed(4))]),
    );
  });

  it('is no way around the table grants', async () => {
    // the outsider's group has provinces, not orders: the view, its columns, a model using it and the dataset are refused
    const columns = await call(w.server, 'GET', `/api/datasource/${w.warehouseId}/columns`, { headers: outsider, query: { tableName: viewName } });
    expect(columns.status).toBe(403);
    expect(columns.body.msg).toContain(viewName);
    const preview = await editorPreview(outsider, viewDataset());
    expect(preview.status).toBe(403);
    const list = await call(w.server, 'GET', '/api/sqlview/views', { headers: outsider, query: { datasourceId: w.warehouseId } });
    expect(list.body.data.map((v: { id: number }) => v.id)).not.toContain(viewId);
    expect((await call(w.server, 'GET', `/api/sqlview/views/${viewId}`, { headers: outsider })).status).toBe(403);
    const read = await w.preview(outsider, cubeId, { dimensions: [{ fieldId: 1 }] });
    expect(read.status).toBe(403);
  });

  it('reports a column the dataset needs that the changed view no longer has, at save', async () => {
    const changed = await saveView(analyst, 'select province, count(*) as n from orders group by province', viewId);
    expect(changed.status, changed.raw.body).toBe(200);
    // the editor is told which datasets use the view and what they lost
    const cubeName = (await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}`, { headers: analyst })).body.data.cubeName;
    expect(changed.body.data.usedBy).toEqual([{ id: cubeId, cubeName, missingColumns: ['total'] }]);
    expect(changed.body.msg).toBe(`保存成功。数据集【${cubeName}】用到的列【total】已不在视图中，请修改这些数据集`);
    // a used view keeps its name and is not deleted
    const renamed = await call(w.server, 'POST', '/api/sqlview/views', {
      headers: analyst,
      payload: { id: viewId, datasourceId: w.warehouseId, sqlName: '省份汇总', viewName: `${viewName}_X`, sqlStatement: 'select 1 as n' },
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.msg).toBe(`视图正在被数据集【${cubeName}】使用，不能改名`);
    const deleted = await call(w.server, 'DELETE', `/api/sqlview/views/${viewId}`, { headers: analyst });
    expect(deleted.status).toBe(409);
    expect(deleted.body.msg).toBe(`视图正在被数据集【${cubeName}】使用，不能删除`);
    const resaved = await w.save(analyst, { ...viewDataset(), id: cubeId, columnList: viewDataset().columnList.slice(0, 4) });
    expect(resaved.status).toBe(400);
    expect(resaved.body.msg).toBe(`字段【订购总额】在数据表【${viewName}】中不存在`);
  });
});
