import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoWarehouse, MIN_SCALE } from '@shutu/connectors';
import { encodeBase64Json, type CubeJoin, type DatasetSave } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, threeTableDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * Saving datasets (issue 5): first save with groups, edit, the spec's checks in order, joins
 * across three demo tables, computed fields with temporary ids, field deletion rules, the
 * field check, and deleting a dataset.
 */
const kinds = await storeKinds();

type Field = {
  id: number;
  columnTitle: string;
  columnFormula: string | null;
  oldViewDataType: string | null;
  virtualAggregationStatus: number;
  tableName: string | null;
};

describe.each(kinds)('datasets on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;
  let workspaceId: number;
  let cubeId: number;
  let groupId: number;

  const fields = async (id: number, headers: Headers = admin): Promise<Field[]> =>
    (await call(w.server, 'GET', `/api/dataset/cubes/${id}/fields`, { headers })).body.data;
  const detail = (id: number, headers: Headers = admin) => call(w.server, 'GET', `/api/dataset/cubes/${id}`, { headers });
  const base = () => threeTableDataset(workspaceId, w.warehouseId);
  const refused = async (payload: unknown, status = 400) => {
    const res = await w.save(admin, payload);
    expect(res.status, res.raw.body).toBe(status);
    return res.body.msg as string;
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    workspaceId = await w.category('经营分析');
    groupId = await w.group([]);
  }, 120_000);
  afterAll(() => w?.close());

  it('saves a new dataset of three joined tables, gives new fields ids and rewrites every reference to them', async () => {
    const res = await w.save(admin, { payload: encodeBase64Json({ ...base(), dataPermIdList: [groupId] }) });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.msg).toBe('保存成功');
    cubeId = res.body.data;
    expect(typeof cubeId).toBe('number');

    const cube = (await detail(cubeId)).body.data;
    expect(cube).toMatchObject({
      cubeName: '订购分析',
      workspaceId,
      workspaceName: '经营分析',
      datasourceId: w.warehouseId,
      tableType: 'LOGIC',
      publicStatus: 0,
      editable: true,
    });
    expect(cube.cubeTableNames.map((t: { tableName: string }) => t.tableName)).toEqual(['orders', 'users', 'provinces']);
    expect(cube.linksJoin[1]).toMatchObject({
      joinType: 'LEFT_JOIN',
      source: 'u',
      target: 'p',
      joinKeys: [{ sourceKey: 'province', targetKey: 'province_name', sourceKeyVtState: 0 }],
    });

    const list = await fields(cubeId);
    const byTitle = Object.fromEntries(list.map((f) => [f.columnTitle, f]));
    expect(Object.values(byTitle).every((f) => Number.isInteger(f.id))).toBe(true);
    expect(byTitle['客单价']!.columnFormula).toBe(`SUM({${byTitle['金额']!.id}}) / COUNT(DISTINCT [手机号])`);
    expect(byTitle['金额分档']!.columnFormula).toBe(`CASE WHEN {${byTitle['金额']!.id}} >= 10 THEN '大额' ELSE '普通' END`);
    expect(byTitle['客单价']!.virtualAggregationStatus).toBe(1);
    expect(byTitle['金额分档']!.virtualAggregationStatus).toBe(0);
    // The real column types are recorded; display attributes get the spec's defaults.
    expect(byTitle['订单编号']).toMatchObject({ oldViewDataType: 'NUMBER', tableName: 'orders' });
    expect(byTitle['省份']).toMatchObject({ numberDataFormat: 'AUTO', timeDataFormat: 'yyyy_MM_ddhh$mm$ss', aggregationType: 'SUM', hiddenStatus: 0 });
    expect(cube.orderByList).toEqual([{ fieldId: byTitle['金额']!.id, aggregation: 'SUM', direction: 'DESC' }]);

    // The first save granted the dataset to the chosen group.
    const granted = await call(w.server, 'GET', `/api/dataset/auth/${groupId}/cubes`, { headers: admin });
    expect(granted.body.data).toContain(cubeId);
  });

  it('previews the saved join of three tables as the engine computes it, with computed fields and the saved order', async () => {
    const ids = await fieldIds(w.server, admin, cubeId);
    const res = await w.preview(admin, cubeId, {
      dimensions: [{ fieldId: ids['大区'] }],
      measures: [{ fieldId: ids['金额'], aggregation: 'SUM' }, { fieldId: ids['客单价'] }],
      withTotal: true,
    });
    expect(res.status, res.raw.body).toBe(200);
    const expected = await w.direct(`
      SELECT p.region AS d0, SUM(o.amount) AS m0, SUM(o.amount) / NULLIF(COUNT(DISTINCT o.phone), 0) AS m1
      FROM orders o LEFT JOIN users u ON o.phone = u.phone LEFT JOIN provinces p ON u.province = p.province_name
      GROUP BY 1 ORDER BY m0 DESC NULLS LAST`);
    expect(res.body.data.total).toBe(expected.length);
    expect(res.body.data.dataList.map((r: Record<string, unknown>) => r.d0)).toEqual(expected.map((r) => r.d0));
    expect(res.body.data.dataList.map((r: Record<string, unknown>) => r.m0)).toEqual(expected.map((r) => r.m0));
    res.body.data.dataList.forEach((row: Record<string, number>, i: number) => expect(row.m1).toBeCloseTo(expected[i]!.m1 as number, 6));
    expect(res.body.data.fieldDict.map((f: { title: string }) => f.title)).toEqual(['大区', '金额', '客单价']);
  });

  it('edits: keeps saved ids, adds a computed field referencing a new one, drops a field and reloads', async () => {
    const before = await fields(cubeId);
    const ids = Object.fromEntries(before.map((f) => [f.columnTitle, f.id]));
    const payload = base();
    const kept = payload.columnList
      .filter((f) => f.columnTitle !== '性别')
      .map((f) => ({ ...f, id: ids[f.columnTitle]!, columnFormula: f.columnFormula?.replaceAll('{o_amount}', `{${ids['金额']}}`) }));
    const edit: DatasetSave = {
      ...payload,
      id: cubeId,
      cubeData: { ...payload.cubeData, cubeName: '订购分析（新）' },
      columnList: [
        ...kept,
        { id: 'n_status', columnName: 'status', columnTitle: '订购状态', tableAliasName: 'o', columnAttr: 'NORMAL' },
        {
          id: 'n_ok',
          columnAttr: 'VIRTUAL',
          columnTitle: '是否成功',
          columnFormula: "IF({n_status} = '订购成功', 1, 0)",
          viewDataType: 'NUMBER',
          dimensionType: 'ZHIBIAO',
        },
      ],
      orderByList: [{ fieldId: 'n_ok', direction: 'ASC' }],
    };
    const res = await w.save(admin, edit);
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toBe(cubeId);
    const after = await fields(cubeId);
    const byTitle = Object.fromEntries(after.map((f) => [f.columnTitle, f]));
    expect(byTitle['性别']).toBeUndefined();
    expect(byTitle['金额']!.id).toBe(ids['金额']);
    expect(byTitle['客单价']!.id).toBe(ids['客单价']);
    expect(byTitle['是否成功']!.columnFormula).toBe(`IF({${byTitle['订购状态']!.id}} = '订购成功', 1, 0)`);
    const cube = (await detail(cubeId)).body.data;
    expect(cube.cubeName).toBe('订购分析（新）');
    expect(cube.orderByList).toEqual([{ fieldId: byTitle['是否成功']!.id, direction: 'ASC' }]);
    const sum = await w.preview(admin, cubeId, { measures: [{ fieldId: byTitle['是否成功']!.id, aggregation: 'SUM' }] });
    expect(sum.status, sum.raw.body).toBe(200);
    const [direct] = await w.direct(
      `SELECT COUNT(*) FILTER (WHERE status = '订购成功') AS n FROM orders o LEFT JOIN users u ON o.phone = u.phone LEFT JOIN provinces p ON u.province = p.province_name`,
    );
    expect(sum.body.data.dataList[0].m0).toBe(direct!.n);
  });

  it('checks in the spec’s order: name, category, join keys, key types, titles, formulas', async () => {
    const payload = base();
    expect(await refused({ ...payload, cubeData: { ...payload.cubeData, cubeName: ' ', workspaceId: 0 } })).toBe('请填写名称');
    expect(await refused({ ...payload, cubeData: { ...payload.cubeData, workspaceId: undefined } })).toBe('请选择分类');
    expect(await refused({ ...payload, cubeData: { ...payload.cubeData, workspaceId: 999999 } })).toBe('分类不存在');

    const joins = payload.cubeData.linksJoin as CubeJoin[];
    const withJoin = (join: (typeof joins)[number]) => ({ ...payload, cubeData: { ...payload.cubeData, linksJoin: [joins[0]!, join] } });
    expect(await refused(withJoin({ ...joins[1]!, joinKeys: [{ sourceKey: 'province', targetKey: '' }] }))).toBe('请补充连接字段');
    expect(await refused(withJoin({ ...joins[1]!, joinKeys: [] }))).toBe('请补充连接字段');
    // order_id (a number) against the user's phone (text): refused on the columns' real types.
    const mismatch = {
      ...payload,
      cubeData: { ...payload.cubeData, linksJoin: [{ ...joins[0]!, joinKeys: [{ sourceKey: 'order_id', targetKey: 'phone' }] }, joins[1]!] },
    };
    expect(await refused(mismatch)).toBe('字段【订单编号】与【用户手机号】的数据类型不一致，无法关联，请检查');
    // …even when the editor declares the number a text field.
    const declared = { ...mismatch, columnList: mismatch.columnList.map((f) => (f.id === 'o_id' ? { ...f, viewDataType: 'STRING' as const } : f)) };
    expect(await refused(declared)).toBe('字段【订单编号】与【用户手机号】的数据类型不一致，无法关联，请检查');

    const duplicate = {
      ...payload,
      columnList: [...payload.columnList, { id: 'dup', columnName: 'province', columnTitle: '省份', tableAliasName: 'u', columnAttr: 'NORMAL' as const }],
    };
    expect(await refused(duplicate)).toBe('字段展示名重复');
    const badFormula = {
      ...payload,
      columnList: payload.columnList.map((f) => (f.id === 'c_band' ? { ...f, columnFormula: 'CASE WHEN {o_amount} >= 10 THEN 1' } : f)),
    };
    const formula = await w.save(admin, badFormula);
    expect(formula.status).toBe(400);
    expect(formula.body.msg).toMatch(/^公式第\d+个字符处有误/);
    expect(formula.body.data).toMatchObject({ kind: 'formula', field: '金额分档' });
    expect(typeof formula.body.data.position).toBe('number');
    const missingColumn = {
      ...payload,
      columnList: [...payload.columnList, { id: 'x', columnName: 'no_such_column', columnTitle: '不存在', tableAliasName: 'o', columnAttr: 'NORMAL' as const }],
    };
    expect(await refused(missingColumn)).toBe('字段【不存在】在数据表【orders】中不存在');
    const badTemp = { ...payload, columnList: payload.columnList.map((f) => (f.id === 'u_age' ? { ...f, id: 'a b' } : f)) };
    expect(await refused(badTemp)).toContain('临时编号【a b】不合法');
    expect(await refused({ ...payload, orderByList: [{ fieldId: 'nope' }] })).toBe('字段【nope】不存在');
    expect(await refused({ payload: '@@' })).toBe('payload 不是合法的 Base64 编码的 JSON');
    expect(await refused({ ...payload, datasourceId: 999999 }, 404)).toBe('数据源不存在');
  });

  it('refuses an edit naming a field id of another dataset, and edits by non-creators', async () => {
    const other = await w.save(admin, threeTableDataset(workspaceId, w.warehouseId, '另一个'));
    const foreign = await fieldIds(w.server, admin, other.body.data);
    const payload = base();
    const ids = await fieldIds(w.server, admin, cubeId);
    const edit = {
      ...payload,
      id: cubeId,
      columnList: payload.columnList.map((f) => ({ ...f, id: f.id === 'u_age' ? foreign['年龄']! : (ids[f.columnTitle] ?? f.id) })),
    };
    expect(await refused(edit)).toBe(`字段【年龄】的编号 ${foreign['年龄']} 不属于该数据集`);

    const analyst = await w.member();
    await w.group([analyst.id], ['orders', 'users', 'provinces']);
    const notMine = await w.save(analyst.headers, { ...payload, id: cubeId });
    expect(notMine.status).toBe(403);
    expect(notMine.body.msg).toBe('没有数据集【订购分析（新）】的使用权限，请联系管理员授权');
    expect((await call(w.server, 'DELETE', `/api/dataset/cubes/${cubeId}`, { headers: analyst.headers })).status).toBe(403);
  });

  it('deletes a field only when no computed field, join or filter uses it, and forgets it in the sort', async () => {
    const ids = await fieldIds(w.server, admin, cubeId);
    const del = (id: number) => call(w.server, 'DELETE', `/api/dataset/fields/${id}`, { headers: admin });
    const byFormula = await del(ids['金额']!);
    expect(byFormula.status).toBe(409);
    expect(byFormula.body.msg).toBe('字段【金额】被计算字段【客单价】使用，不能删除');
    const byTitleReference = await del(ids['手机号']!);
    expect(byTitleReference.status).toBe(409);
    expect(byTitleReference.body.msg).toBe('字段【手机号】被计算字段【客单价】使用，不能删除');
    const byJoin = await del(ids['用户手机号']!);
    expect(byJoin.status).toBe(409);
    expect(byJoin.body.msg).toBe('字段【用户手机号】是表【orders】与表【users】的连接字段，不能删除');

    expect((await del(ids['是否成功']!)).status).toBe(200);
    expect((await detail(cubeId)).body.data.orderByList).toEqual([]);
    const free = await del(ids['年龄']!);
    expect(free.status, free.raw.body).toBe(200);
    expect(free.body.msg).toBe('删除成功!');
    expect((await fieldIds(w.server, admin, cubeId))['年龄']).toBeUndefined();
    expect((await del(ids['年龄']!)).status).toBe(404);
  });

  it('field check lists the columns not yet in the dataset, titled by the spec’s duplicate rule; none gives 无可同步字段', async () => {
    const tables = [
      { tableName: 'provinces', tableAliasName: 'p' },
      { tableName: 'areas', tableAliasName: 'a' },
    ];
    const have = [{ columnAttr: 'NORMAL', columnName: 'province_code', tableAliasName: 'p', columnTitle: '省份编码', viewDataType: 'STRING' }];
    const res = await call(w.server, 'POST', '/api/dataset/field-check', {
      headers: admin,
      payload: { datasourceId: w.warehouseId, cubeTableNames: tables, columnList: have },
    });
    expect(res.status, res.raw.body).toBe(200);
    const drafts = res.body.data as {
      columnName: string;
      tableAliasName: string;
      columnTitle: string;
      hiddenStatus: number;
      dimensionType: string;
      viewDataType: string;
    }[];
    expect(drafts.map((d) => `${d.tableAliasName}.${d.columnName}`)).toEqual([
      'p.province_name',
      'p.region',
      'p.sort_no',
      'a.area_code',
      'a.area_name',
      'a.province_code',
      'a.province_name',
    ]);
    expect(drafts.find((d) => d.columnName === 'sort_no')).toMatchObject({
      columnTitle: '排序号',
      dimensionType: 'ZHIBIAO',
      viewDataType: 'NUMBER',
      hiddenStatus: 0,
    });
    // areas.province_code is 所属省份编码, not a duplicate; provinces' 省份编码 is held already.
    expect(drafts.find((d) => d.tableAliasName === 'a' && d.columnName === 'province_code')).toMatchObject({ columnTitle: '所属省份编码', hiddenStatus: 0 });

    const all = [...have, ...drafts.map((d) => ({ columnAttr: 'NORMAL', ...d }))];
    const none = await call(w.server, 'POST', '/api/dataset/field-check', {
      headers: admin,
      payload: { payload: encodeBase64Json({ datasourceId: w.warehouseId, cubeTableNames: tables, columnList: all }) },
    });
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.msg).toBe('无可同步字段');

    // The same comment twice: the later one gets 1 appended and is hidden (same data type).
    const twice = await call(w.server, 'POST', '/api/dataset/field-check', {
      headers: admin,
      payload: {
        datasourceId: w.warehouseId,
        cubeTableNames: [
          { tableName: 'orders', tableAliasName: 'o' },
          { tableName: 'users', tableAliasName: 'u' },
        ],
        columnList: [],
      },
    });
    const phones = (twice.body.data as typeof drafts).filter((d) => d.columnName === 'phone');
    expect(phones.map((d) => [d.columnTitle, d.hiddenStatus])).toEqual([
      ['用户手机号（11位）', 0],
      ['用户手机号（11位）1', 1],
    ]);
  });

  it('manages the two-level category tree and lists datasets by category, sub-categories included', async () => {
    const save = (payload: Record<string, unknown>) => call(w.server, 'POST', '/api/dataset/categories', { headers: admin, payload });
    expect((await save({ wsName: '  ' })).body.msg).toBe('请填写分类名');
    const top = await w.category('区域');
    const child = await w.category('华南', top);
    expect((await save({ wsName: '孙分类', parentId: child })).body.msg).toBe('分类最多两级：上级只能是顶级分类');
    expect((await save({ id: top, wsName: '区域', parentId: top })).body.msg).toBe('上级分类不能是自己');
    expect((await save({ id: top, wsName: '区域', parentId: workspaceId })).body.msg).toBe('该分类下还有子分类，不能移到其他分类下');
    expect((await save({ wsName: '华南', parentId: top })).status).toBe(409);
    const renamed = await save({ id: child, wsName: '华南区', parentId: top });
    expect(renamed.body.data).toMatchObject({ id: child, wsName: '华南区', parentId: top });

    const inChild = (await w.save(admin, threeTableDataset(child, w.warehouseId, '华南订购'))).body.data;
    const list = async (query: Record<string, string | number>) =>
      ((await call(w.server, 'GET', '/api/dataset/cubes', { headers: admin, query })).body.data.records as { id: number; cubeName: string }[]).map(
        (r) => r.cubeName,
      );
    expect(await list({ workspaceId: top })).toEqual(['华南订购']);
    expect(await list({ workspaceId: child })).toEqual(['华南订购']);
    expect(await list({ workspaceId, cubeName: '订购' })).toEqual(['订购分析（新）']);
    expect((await list({ cubeName: '%' })).length).toBe(0);

    const remove = (id: number) => call(w.server, 'DELETE', `/api/dataset/categories/${id}`, { headers: admin });
    expect((await remove(top)).body.msg).toBe('请先删除下级分类');
    expect((await remove(child)).body.msg).toBe('该分类下还有 1 个数据集，请先删除或移到其他分类');
    expect((await call(w.server, 'DELETE', `/api/dataset/cubes/${inChild}`, { headers: admin })).status).toBe(200);
    expect((await remove(child)).status).toBe(200);
    expect((await remove(top)).status).toBe(200);
    const categories = (await call(w.server, 'GET', '/api/dataset/categories', { headers: admin })).body.data as { id: number }[];
    expect(categories.map((c) => c.id)).not.toContain(top);
  });

  it('deletes a dataset with its grants, and refuses to delete a data source datasets use', async () => {
    const extra = (await w.save(admin, { ...threeTableDataset(workspaceId, w.warehouseId, '临时'), dataPermIdList: [groupId] })).body.data;
    expect((await call(w.server, 'GET', `/api/dataset/auth/${groupId}/cubes`, { headers: admin })).body.data).toContain(extra);
    const res = await call(w.server, 'DELETE', `/api/dataset/cubes/${extra}`, { headers: admin });
    expect(res.status).toBe(200);
    expect((await detail(extra)).status).toBe(404);
    expect((await call(w.server, 'GET', `/api/dataset/auth/${groupId}/cubes`, { headers: admin })).body.data).not.toContain(extra);
    const grants = await w.server.ctx.db.selectFrom('permGrant').select('resourceId').where('kind', '=', 'cube').where('resourceId', '=', extra).execute();
    expect(grants).toEqual([]);

    // A data source datasets are built on is not deleted with them: 409 naming them.
    await ensureDemoWarehouse(path.join(w.server.ctx.config.dataDir, 'second.duckdb'), { scale: MIN_SCALE });
    const source = await call(w.server, 'POST', '/api/datasource', { headers: admin, payload: { dsDb: '第二仓库', type: 'duckdb', path: 'second.duckdb' } });
    expect(source.status, source.raw.body).toBe(200);
    const sourceId = source.body.data.id as number;
    const onIt = await w.save(admin, threeTableDataset(workspaceId, sourceId, '第二仓库订购'));
    expect(onIt.status, onIt.raw.body).toBe(200);
    const refusedDelete = await call(w.server, 'DELETE', `/api/datasource/${sourceId}`, { headers: admin });
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.msg).toBe('数据源正在被 1 个数据集使用（第二仓库订购），请先删除这些数据集');
    expect((await detail(onIt.body.data)).status).toBe(200);
    expect((await call(w.server, 'DELETE', `/api/dataset/cubes/${onIt.body.data}`, { headers: admin })).status).toBe(200);
    expect((await call(w.server, 'DELETE', `/api/datasource/${sourceId}`, { headers: admin })).status).toBe(200);
  });
});
