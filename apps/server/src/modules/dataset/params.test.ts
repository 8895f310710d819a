import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * Global parameters and the global filter (spec 2 §3, §5 "Permission filter and global
 * filter"): parameter categories and parameters, a global filter condition taking its value
 * from a parameter (过滤条件【…】未设置全局参数 without a key), the filter applied to every
 * read, administrators' included, and the permission cube_filter_row to change it.
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;

describe.each(kinds)('global parameters and the global filter on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;
  let workspaceId: number;
  let typeId: number;

  const post = (url: string, payload: unknown, headers: Headers = admin) => call(w.server, 'POST', url, { headers, payload });

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    workspaceId = await w.category('全局过滤');
  }, 120_000);
  afterAll(() => w?.close());

  it('keeps parameter categories and parameters: names required, keys unique, categories in use kept', async () => {
    expect((await post('/api/global-param/types', { typeName: '' })).body.msg).toBe('请输入分类名');
    const type = await post('/api/global-param/types', { typeName: '地域参数', sortNum: 1 });
    expect(type.status, type.raw.body).toBe(200);
    typeId = type.body.data.id;
    expect((await post('/api/global-param/types', { typeName: '地域参数' })).status).toBe(409);

    expect((await post('/api/global-param/params', { paramName: '省份', paramKey: 'province' })).body.msg).toBe('请选择参数分类');
    expect((await post('/api/global-param/params', { typeId, paramName: ' ', paramKey: 'province' })).body.msg).toBe('请输入参数名称');
    expect((await post('/api/global-param/params', { typeId, paramName: '省份' })).body.msg).toBe('请输入参数key');
    expect((await post('/api/global-param/params', { typeId, paramName: '省份', paramKey: '1abc' })).body.msg).toBe(
      '参数key须以字母开头，只含字母、数字或下划线',
    );
    const param = await post('/api/global-param/params', { typeId, paramName: '省份', paramKey: 'province' });
    expect(param.status, param.raw.body).toBe(200);
    expect(param.body.data).toMatchObject({ typeId, typeName: '地域参数', paramName: '省份', paramKey: 'province', paramColumnType: 'STRING' });
    expect((await post('/api/global-param/params', { typeId, paramName: '省份2', paramKey: 'PROVINCE' })).body.msg).toBe('参数key已存在');
    expect((await post('/api/global-param/params', { typeId: 987654, paramName: 'x', paramKey: 'x' })).body.msg).toBe('参数分类不存在');

    const member = await w.member();
    const list = await call(w.server, 'GET', '/api/global-param/params', { headers: member.headers, query: { current: 1, size: 10000 } });
    expect(list.status).toBe(200);
    expect(list.body.data.records.map((p: { paramKey: string }) => p.paramKey)).toEqual(['province']);
    expect(
      (await call(w.server, 'GET', '/api/global-param/types', { headers: member.headers })).body.data.map((t: { typeName: string }) => t.typeName),
    ).toEqual(['地域参数']);
    expect((await post('/api/global-param/params', { typeId, paramName: 'x', paramKey: 'x' }, member.headers)).status).toBe(403);

    const removeType = await call(w.server, 'DELETE', `/api/global-param/types/${typeId}`, { headers: admin });
    expect(removeType.status).toBe(409);
    expect(removeType.body.msg).toBe('该分类下还有 1 个全局参数，请先删除或移到其他分类');
  });

  it('refuses a global-filter condition that uses a parameter without a key, or an unknown one', async () => {
    const payload = ordersDataset(workspaceId, w.warehouseId, '带参数');
    const filter = (useParam: boolean, paramKey?: string) => ({
      relation: 'AND',
      conditions: [{ cubeColumnId: 'province', conditions: [{ function: 'eq', values: [], useParam, ...(paramKey === undefined ? {} : { paramKey }) }] }],
    });
    const save = (filterJson: unknown) => w.save(admin, { ...payload, cubeData: { ...payload.cubeData, filterJson } });
    expect((await save(filter(true))).body.msg).toBe('过滤条件【省份】未设置全局参数');
    expect((await save(filter(true, ''))).body.msg).toBe('过滤条件【省份】未设置全局参数');
    expect((await save(filter(true, 'city'))).body.msg).toBe('过滤条件【省份】使用的全局参数【city】不存在');
    expect((await save(filter(false))).body.msg).toBe('过滤条件【省份】缺少值');
  });

  it('applies the global filter to every read, administrators included, with the parameter’s value when given', async () => {
    const payload = ordersDataset(workspaceId, w.warehouseId, '全局过滤明细', 1);
    const filterJson = {
      relation: 'AND',
      conditions: [
        { cubeColumnId: 'channel', conditions: [{ function: 'eq', values: ['线上商城'] }] },
        { cubeColumnId: 'province', conditions: [{ function: 'in', values: [], useParam: true, paramKey: 'province' }] },
      ],
    };
    const saved = await w.save(admin, { ...payload, cubeData: { ...payload.cubeData, filterJson: JSON.stringify(filterJson) } });
    expect(saved.status, saved.raw.body).toBe(200);
    const cubeId = saved.body.data as number;
    const ids = await fieldIds(w.server, admin, cubeId);
    const cube = (await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}`, { headers: admin })).body.data;
    expect(cube.filterJson.conditions.map((c: { cubeColumnId: number }) => c.cubeColumnId)).toEqual([ids['渠道'], ids['省份']]);
    expect(cube.filterJson.conditions[1].conditions[0]).toMatchObject({ useParam: true, paramKey: 'province' });

    const count = async (headers: Headers, params?: Record<string, unknown>) => {
      const res = await w.preview(headers, cubeId, { measures: [{ fieldId: ids['订单编号'], aggregation: 'COUNT' }] }, params);
      expect(res.status, res.raw.body).toBe(200);
      return (res.body.data.dataList as Row[])[0]!.m0;
    };
    const [online] = await w.direct("SELECT COUNT(*) AS n FROM orders WHERE channel_name = '线上商城'");
    const [onlineGd] = await w.direct("SELECT COUNT(*) AS n FROM orders WHERE channel_name = '线上商城' AND province IN ('广东', '北京')");
    const member = await w.member();
    expect(await count(admin)).toBe(online!.n);
    expect(await count(member.headers)).toBe(online!.n);
    expect(await count(admin, { province: ['广东', '北京'] })).toBe(onlineGd!.n);
    expect(await count(admin, { province: '' })).toBe(online!.n);

    // The parameter is in use: neither deleted nor re-keyed.
    const params = (await call(w.server, 'GET', '/api/global-param/params', { headers: admin })).body.data.records as { id: number }[];
    const removed = await call(w.server, 'DELETE', `/api/global-param/params/${params[0]!.id}`, { headers: admin });
    expect(removed.status).toBe(409);
    expect(removed.body.msg).toBe('全局参数【province】被数据集【全局过滤明细】的全局过滤使用，不能删除');
    const rekeyed = await post('/api/global-param/params', { id: params[0]!.id, typeId, paramName: '省份', paramKey: 'prov' });
    expect(rekeyed.status).toBe(409);
    const renamed = await post('/api/global-param/params', { id: params[0]!.id, typeId, paramName: '所在省份', paramKey: 'province' });
    expect(renamed.status, renamed.raw.body).toBe(200);

    // Changing the global filter needs cube_filter_row; saving it unchanged does not.
    const analyst = await w.member();
    await w.group([analyst.id], ['orders']);
    const own = await w.save(analyst.headers, { ...payload, cubeData: { ...payload.cubeData, cubeName: '分析师的', filterJson } });
    expect(own.status).toBe(403);
    expect(own.body.msg).toBe('没有设置全局过滤的权限');
    const plain = await w.save(analyst.headers, { ...payload, cubeData: { ...payload.cubeData, cubeName: '分析师的' } });
    expect(plain.status, plain.raw.body).toBe(200);
    const fields = await fieldIds(w.server, analyst.headers, plain.body.data);
    const edit = {
      ...payload,
      id: plain.body.data,
      cubeData: { ...payload.cubeData, cubeName: '分析师的（改）' },
      columnList: payload.columnList.map((f) => ({ ...f, id: fields[f.columnTitle]! })),
    };
    expect((await w.save(analyst.headers, edit)).status).toBe(200);
    const filtered = {
      ...edit,
      cubeData: { ...edit.cubeData, filterJson: { conditions: [{ cubeColumnId: fields['渠道'], conditions: [{ values: ['线上商城'] }] }] } },
    };
    expect((await w.save(analyst.headers, filtered)).status).toBe(403);
    const holder = await w.member(['cube_filter_row']);
    await w.group([holder.id], ['orders']);
    const byHolder = await w.save(holder.headers, {
      ...payload,
      cubeData: {
        ...payload.cubeData,
        cubeName: '持权限者的',
        filterJson: { conditions: [{ cubeColumnId: 'channel', conditions: [{ values: ['线上商城'] }] }] },
      },
    });
    expect(byHolder.status, byHolder.raw.body).toBe(200);
  });

  it('keeps a parameter a computed field’s formula uses: neither deleted nor re-keyed', async () => {
    const created = await post('/api/global-param/params', { typeId, paramName: '汇率', paramKey: 'fx_rate', paramColumnType: 'NUMBER' });
    expect(created.status, created.raw.body).toBe(200);
    const payload = ordersDataset(workspaceId, w.warehouseId, '汇率换算', 1);
    payload.columnList.push({
      id: 'usd',
      columnAttr: 'VIRTUAL',
      columnTitle: '美元金额',
      columnFormula: '[金额] / ${fx_rate}',
      dimensionType: 'ZHIBIAO',
      viewDataType: 'NUMBER',
    });
    const unknown = await w.save(admin, {
      ...payload,
      columnList: payload.columnList.map((f) => (f.id === 'usd' ? { ...f, columnFormula: '[金额] / ${fx}' } : f)),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('公式使用的全局参数【fx】不存在');
    const saved = await w.save(admin, payload);
    expect(saved.status, saved.raw.body).toBe(200);
    const id = created.body.data.id as number;
    const removed = await call(w.server, 'DELETE', `/api/global-param/params/${id}`, { headers: admin });
    expect(removed.status).toBe(409);
    expect(removed.body.msg).toBe('全局参数【fx_rate】被数据集【汇率换算】的计算字段【美元金额】使用，不能删除');
    const rekeyed = await post('/api/global-param/params', { id, typeId, paramName: '汇率', paramKey: 'fx', paramColumnType: 'NUMBER' });
    expect(rekeyed.status).toBe(409);
    expect(rekeyed.body.msg).toBe('全局参数【fx_rate】被数据集【汇率换算】的计算字段【美元金额】使用，不能修改key');
  });
});
