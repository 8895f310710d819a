import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPermFilterName, encodeBase64Json } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * What a user sees of a dataset (docs/datasets.md): who may see it at all, and the
 * permission filters of their groups — the union of the rows, the intersection of the hidden
 * columns — never applied to administrators. Also the filter dialog's rules (§6) and the
 * group-level dataset authorisation.
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;
const provinceFilter = (fieldId: number, ...values: string[]) => ({
  relation: 'AND',
  conditions: [{ cubeColumnId: fieldId, connectType: 'and', conditions: [{ function: values.length > 1 ? 'in' : 'eq', values }] }],
  filters: [],
});

describe.each(kinds)('dataset permissions on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;
  let workspaceId: number;
  let cubeId: number;
  let ids: Record<string, number>;
  /** g1: 广东 rows, hides phone and amount; g2: 北京 rows, hides phone; g3: no filter. */
  let g1: number, g2: number, g3: number;
  let one: Headers, two: Headers, both: Headers, plain: Headers, outsider: Headers;
  let everyProvince: string[];

  const provinces = async (headers: Headers) => {
    const res = await w.preview(headers, cubeId, { dimensions: [{ fieldId: ids['省份'] }], detail: false, sort: [{ fieldId: ids['省份'] }] });
    expect(res.status, res.raw.body).toBe(200);
    return (res.body.data.dataList as Row[]).map((r) => r.d0 as string);
  };
  const reads = async (headers: Headers, title: string) =>
    (await w.preview(headers, cubeId, { measures: [{ fieldId: ids[title], aggregation: 'COUNT' }] })).status;
  const saveFilter = (headers: Headers, body: Record<string, unknown>) => call(w.server, 'POST', '/api/dataset/perm-filters', { headers, payload: body });

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    workspaceId = await w.category('权限测试');
    const users = await Promise.all([w.member(), w.member(), w.member(), w.member(), w.member()]);
    [one, two, both, plain, outsider] = users.map((u) => u.headers) as [Headers, Headers, Headers, Headers, Headers];
    const [u1, u2, uBoth, uPlain] = users.map((u) => u.id) as [number, number, number, number];
    // g1 may also use the orders table, for the editor's model preview.
    g1 = await w.group([u1, uBoth], ['orders']);
    g2 = await w.group([u2, uBoth]);
    g3 = await w.group([uPlain]);

    cubeId = (await w.save(admin, ordersDataset(workspaceId, w.warehouseId))).body.data;
    ids = await fieldIds(w.server, admin, cubeId);
    // Group-level authorisation: the dataset tab of each group's settings.
    for (const group of [g1, g2, g3]) {
      const res = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, {
        headers: admin,
        payload: { cubeWorkspaceId: workspaceId, dataIdList: [cubeId] },
      });
      expect(res.status, res.raw.body).toBe(200);
      expect(res.body.data).toEqual([cubeId]);
    }
    everyProvince = (await w.direct('SELECT DISTINCT province FROM orders ORDER BY 1')).map((r) => r.province as string);
  }, 120_000);
  afterAll(() => w?.close());

  it('adds one filter per group (administrators), with the default names and the checks of a filter tree', async () => {
    expect(defaultPermFilterName(0)).toBe('一号过滤器');
    expect(defaultPermFilterName(1)).toBe('2-新增过滤器');
    const first = await saveFilter(admin, {
      payload: encodeBase64Json({
        cubeDataId: cubeId,
        dataPermId: g1,
        cubePermName: defaultPermFilterName(0),
        filterJson: JSON.stringify(provinceFilter(ids['省份']!, '广东')),
        excludeColumnIds: `${ids['手机号']},${ids['金额']}`,
      }),
    });
    expect(first.status, first.raw.body).toBe(200);
    expect(first.body.data).toMatchObject({
      cubeDataId: cubeId,
      dataPermId: g1,
      cubePermName: '一号过滤器',
      excludeColumnIds: `${ids['手机号']},${ids['金额']}`,
    });
    expect(first.body.data.filterJson.conditions[0].cubeColumnId).toBe(ids['省份']);
    const second = await saveFilter(admin, {
      cubeDataId: cubeId,
      dataPermId: g2,
      cubePermName: defaultPermFilterName(1),
      filterJson: provinceFilter(ids['省份']!, '北京'),
      excludeColumnIds: [ids['手机号']],
    });
    expect(second.status, second.raw.body).toBe(200);
    expect(second.body.data.excludeColumnIds).toBe(String(ids['手机号']));

    const again = await saveFilter(admin, { cubeDataId: cubeId, dataPermId: g1, cubePermName: '重复', filterJson: provinceFilter(ids['省份']!, '上海') });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/^权限组【.+】在该数据集上已有过滤器，一个权限组只能有一个过滤器$/);
    expect((await saveFilter(admin, { cubeDataId: cubeId, dataPermId: g3, cubePermName: ' ' })).body.msg).toBe('请填写过滤器名称');
    expect((await saveFilter(admin, { cubeDataId: cubeId, cubePermName: '无组' })).body.msg).toBe('请选择权限组');
    expect((await saveFilter(admin, { cubeDataId: cubeId, dataPermId: g3, cubePermName: 'x', filterJson: provinceFilter(987654, '广东') })).body.msg).toBe(
      '字段【987654】不存在',
    );
    expect((await saveFilter(admin, { cubeDataId: cubeId, dataPermId: g3, cubePermName: 'x', excludeColumnIds: '987654' })).body.msg).toBe('字段不存在');
    const withParam = provinceFilter(ids['省份']!, '广东');
    (withParam.conditions[0]!.conditions[0] as Record<string, unknown>).useParam = true;
    expect((await saveFilter(admin, { cubeDataId: cubeId, dataPermId: g3, cubePermName: 'x', filterJson: withParam })).body.msg).toBe(
      '权限过滤器不能使用全局参数',
    );

    const list = await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/perm-filters`, { headers: admin });
    expect(list.body.data.map((f: { cubePermName: string }) => f.cubePermName)).toEqual(['一号过滤器', '2-新增过滤器']);
  });

  it('gives each member the union of their groups’ rows; no filter on their groups means every row; administrators all', async () => {
    expect(await provinces(one)).toEqual(['广东']);
    expect(await provinces(two)).toEqual(['北京']);
    expect(await provinces(both)).toEqual(['北京', '广东']);
    expect(await provinces(plain)).toEqual(everyProvince);
    expect(await provinces(admin)).toEqual(everyProvince);
    expect(everyProvince.length).toBeGreaterThan(2);

    // The rows are the right ones, not just the right provinces.
    const counted = await w.preview(both, cubeId, { measures: [{ fieldId: ids['订单编号'], aggregation: 'COUNT' }] });
    const [expected] = await w.direct("SELECT COUNT(*) AS n FROM orders WHERE province IN ('广东', '北京')");
    expect(counted.body.data.dataList[0].m0).toBe(expected!.n);
  });

  it('hides a column only when every filter of the member’s groups excludes it', async () => {
    expect(await reads(one, '手机号')).toBe(403);
    expect(await reads(one, '金额')).toBe(403);
    expect(await reads(two, '金额')).toBe(200);
    expect(await reads(both, '手机号')).toBe(403);
    expect(await reads(both, '金额')).toBe(200);
    expect(await reads(plain, '手机号')).toBe(200);
    expect(await reads(admin, '手机号')).toBe(200);
    const refused = await w.preview(one, cubeId, { dimensions: [{ fieldId: ids['手机号'] }], detail: true });
    expect(refused.body.msg).toBe('无权访问字段【手机号】');

    const titles = async (headers: Headers) =>
      ((await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/fields`, { headers })).body.data as { columnTitle: string }[]).map((f) => f.columnTitle);
    expect(await titles(one)).toEqual(['省份', '渠道', '订单编号']);
    expect(await titles(both)).toEqual(['省份', '渠道', '金额', '订单编号']);
    expect(await titles(admin)).toEqual(['省份', '渠道', '手机号', '金额', '订单编号']);
  });

  it('applies the dataset’s filters to the editor’s model preview with cubeDataId, not without', async () => {
    const model = {
      tables: [{ tableName: 'orders', tableAliasName: 'o' }],
      fields: [{ id: ids['省份'], columnName: 'province', columnTitle: '省份', tableAliasName: 'o' }],
    };
    const preview = async (headers: Headers, extra: Record<string, unknown> = {}) => {
      const res = await call(w.server, 'POST', '/api/query/preview', {
        headers,
        payload: { datasourceId: w.warehouseId, model, request: { dimensions: [{ fieldId: ids['省份'] }], sort: [{ fieldId: ids['省份'] }] }, ...extra },
      });
      return res.status === 200 ? (res.body.data.dataList as Row[]).map((r) => r.d0) : res.body.msg;
    };
    expect(await preview(one)).toEqual(everyProvince);
    expect(await preview(one, { cubeDataId: cubeId })).toEqual(['广东']);
    expect(await preview(admin, { cubeDataId: cubeId })).toEqual(everyProvince);
    // A filter naming a field the edited model lacks cannot be applied.
    const bare = { ...model, fields: [{ id: 'x1', columnName: 'channel_name', columnTitle: '渠道', tableAliasName: 'o' }] };
    const lacking = await call(w.server, 'POST', '/api/query/preview', {
      headers: one,
      payload: { datasourceId: w.warehouseId, model: bare, request: { dimensions: [{ fieldId: 'x1' }] }, cubeDataId: cubeId },
    });
    expect(lacking.status).toBe(400);
    expect(lacking.body.msg).toBe('权限过滤器【一号过滤器】使用的字段不在当前数据集中，请先保存数据集');
  });

  it('lets members see public datasets, granted ones and their own; others get 403 on detail and preview', async () => {
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}`, { headers: outsider })).status).toBe(403);
    const denied = await w.preview(outsider, cubeId, { dimensions: [{ fieldId: ids['省份'] }] });
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe('没有数据集【订单明细】的使用权限，请联系管理员授权');
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/fields`, { headers: outsider })).status).toBe(403);
    const editorPreview = await call(w.server, 'POST', '/api/query/preview', {
      headers: outsider,
      payload: {
        datasourceId: w.warehouseId,
        model: { tables: [{ tableName: 'orders', tableAliasName: 'o' }], fields: [] },
        request: { dimensions: [] },
        cubeDataId: cubeId,
      },
    });
    expect(editorPreview.status).toBe(403);

    const publicId = (await w.save(admin, ordersDataset(workspaceId, w.warehouseId, '公开明细', 1))).body.data;
    const names = async (headers: Headers) =>
      ((await call(w.server, 'GET', '/api/dataset/cubes', { headers, query: { workspaceId } })).body.data.records as { cubeName: string }[]).map(
        (r) => r.cubeName,
      );
    expect(await names(outsider)).toEqual(['公开明细']);
    expect(await names(one)).toEqual(['公开明细', '订单明细']);
    expect((await w.preview(outsider, publicId, { dimensions: [{ fieldId: (await fieldIds(w.server, admin, publicId))['省份'] }] })).status).toBe(200);

    // An analyst's own dataset (on a table granted to their group), with no group chosen: still theirs.
    const analyst = await w.member(['cube_filter_row']);
    const analystGroup = await w.group([analyst.id], ['orders']);
    const own = await w.save(analyst.headers, ordersDataset(workspaceId, w.warehouseId, '我的明细'));
    expect(own.status, own.raw.body).toBe(200);
    expect(await names(analyst.headers)).toEqual(['我的明细', '公开明细']);
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${own.body.data}`, { headers: analyst.headers })).body.data.editable).toBe(true);
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${own.body.data}`, { headers: outsider })).status).toBe(403);
    // Groups on a first save: only their own; a table not granted to them is refused.
    const foreign = await w.save(analyst.headers, { ...ordersDataset(workspaceId, w.warehouseId, '他人组'), dataPermIdList: [g1] });
    expect(foreign.status).toBe(403);
    expect(foreign.body.msg).toBe('只能选择自己所在的权限组');
    const bound = await w.save(analyst.headers, { ...ordersDataset(workspaceId, w.warehouseId, '组内明细'), dataPermIdList: [analystGroup] });
    expect(bound.status, bound.raw.body).toBe(200);
    const users = await w.save(analyst.headers, {
      ...ordersDataset(workspaceId, w.warehouseId),
      cubeData: { cubeName: '用户', workspaceId, cubeTableNames: [{ tableName: 'users', tableAliasName: 'o' }] },
      columnList: [],
    });
    expect(users.status).toBe(403);
    expect(users.body.msg).toBe('没有数据表【users】的使用权限，请联系管理员授权');

    // The filter dialog on their own dataset: update yes, add, delete and rebinding no.
    const addByAnalyst = await saveFilter(analyst.headers, { cubeDataId: own.body.data, dataPermId: analystGroup, cubePermName: '一号过滤器' });
    expect(addByAnalyst.status).toBe(403);
    expect(addByAnalyst.body.msg).toBe('只有管理员可以添加、删除权限过滤器或更换其权限组');
    const ownIds = await fieldIds(w.server, analyst.headers, own.body.data);
    const added = await saveFilter(admin, {
      cubeDataId: own.body.data,
      dataPermId: analystGroup,
      cubePermName: '一号过滤器',
      filterJson: provinceFilter(ownIds['省份']!, '上海'),
    });
    expect(added.status, added.raw.body).toBe(200);
    const listed = await call(w.server, 'GET', `/api/dataset/cubes/${own.body.data}/perm-filters`, { headers: analyst.headers });
    expect(listed.body.data).toHaveLength(1);
    const updated = await saveFilter(analyst.headers, {
      id: added.body.data.id,
      cubeDataId: own.body.data,
      dataPermId: analystGroup,
      cubePermName: '上海与江苏',
      filterJson: provinceFilter(ownIds['省份']!, '上海', '江苏'),
    });
    expect(updated.status, updated.raw.body).toBe(200);
    expect(updated.body.data.cubePermName).toBe('上海与江苏');
    const rebind = await saveFilter(analyst.headers, { id: added.body.data.id, cubeDataId: own.body.data, dataPermId: g1, cubePermName: 'x' });
    expect(rebind.status).toBe(403);
    expect((await call(w.server, 'DELETE', `/api/dataset/perm-filters/${added.body.data.id}`, { headers: analyst.headers })).status).toBe(403);
    // The creator is a member of the filtered group: their reads are filtered too.
    const seen = await w.preview(analyst.headers, own.body.data, { dimensions: [{ fieldId: ownIds['省份'] }], sort: [{ fieldId: ownIds['省份'] }] });
    expect(seen.body.data.dataList.map((r: Row) => r.d0)).toEqual(['上海', '江苏']);
    // Not their dataset: not even its filter list.
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/perm-filters`, { headers: analyst.headers })).status).toBe(403);
    expect((await call(w.server, 'DELETE', `/api/dataset/perm-filters/${added.body.data.id}`, { headers: admin })).status).toBe(200);
  });

  it('group-level authorisation replaces a group’s grants within one category only, and shows its filter', async () => {
    const otherCategory = await w.category('其他分类');
    const a = (await w.save(admin, ordersDataset(workspaceId, w.warehouseId, '甲'))).body.data;
    const b = (await w.save(admin, ordersDataset(otherCategory, w.warehouseId, '乙'))).body.data;
    const put = (category: number, dataIdList: number[]) =>
      call(w.server, 'PUT', `/api/dataset/auth/${g3}/cubes`, { headers: admin, payload: { cubeWorkspaceId: category, dataIdList } });
    const list = async (category?: number) =>
      (await call(w.server, 'GET', `/api/dataset/auth/${g3}/cubes`, { headers: admin, query: category ? { cubeWorkspaceId: category } : {} })).body
        .data as number[];

    expect((await put(otherCategory, [b])).body.data).toEqual([b]);
    expect((await put(workspaceId, [a])).body.data).toEqual([a]);
    // The first category's grant of cubeId went; the other category's stays.
    expect(await list()).toEqual([a, b].sort((x, y) => x - y));
    expect(await list(otherCategory)).toEqual([b]);
    const outside = await put(workspaceId, [b]);
    expect(outside.status).toBe(400);
    expect(outside.body.msg).toBe(`数据集【${b}】不存在或不在该分类下`);
    expect((await put(workspaceId, [])).body.data).toEqual([]);
    expect(await list()).toEqual([b]);
    expect(
      (await call(w.server, 'PUT', `/api/dataset/auth/987654/cubes`, { headers: admin, payload: { cubeWorkspaceId: workspaceId, dataIdList: [] } })).status,
    ).toBe(404);

    const detail = await call(w.server, 'GET', `/api/dataset/auth/${g1}/cubes/${cubeId}`, { headers: admin });
    expect(detail.body.data).toMatchObject({
      cubeDataId: cubeId,
      dataPermId: g1,
      cubeWorkspaceId: workspaceId,
      granted: true,
      filter: { cubePermName: '一号过滤器' },
    });
    const none = await call(w.server, 'GET', `/api/dataset/auth/${g3}/cubes/${cubeId}`, { headers: admin });
    expect(none.body.data).toMatchObject({ granted: false, filter: null });
    // g3 lost its grant: its member no longer sees the dataset.
    expect((await w.preview(plain, cubeId, { dimensions: [{ fieldId: ids['省份'] }] })).status).toBe(403);
  });

  it('deletes filters by administrators only; a deleted group takes its filter along', async () => {
    const filters = (await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/perm-filters`, { headers: admin })).body.data as {
      id: number;
      dataPermId: number;
    }[];
    const second = filters.find((f) => f.dataPermId === g2)!;
    expect((await call(w.server, 'DELETE', `/api/dataset/perm-filters/${second.id}`, { headers: admin })).status).toBe(200);
    expect(await provinces(two)).toEqual(everyProvince);
    expect(await provinces(both)).toEqual(['广东']);
    expect((await call(w.server, 'DELETE', `/api/perm/groups/${g1}`, { headers: admin })).status).toBe(200);
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/perm-filters`, { headers: admin })).body.data).toEqual([]);
    expect(await provinces(both)).toEqual(everyProvince);
  });
});
