import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_API_OPTIONS_MAX, dataApiMessages, type DataApi } from '@shutu/contracts';
import { call, type Call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { optionsOf } from './options.ts';

/**
 * GET /api/dataapi/apis/:id/options (enumSource 2 pick-lists, docs/dataapi.md "Pick-lists"):
 * a published API's answer as { value, label } options, run as the signed-in user.
 */

const kinds = await storeKinds();
let seq = 0;
const uniqueKey = (stem: string) => `${stem}_${Date.now().toString(36)}_${++seq}`;

describe('options from an answer', () => {
  const api = (showFields: { columnName: string }[] = []) => ({ note: JSON.stringify({ showFields }) }) as DataApi;

  it('takes value and label from the first two columns, or from showFields, distinct, searched', () => {
    const rows = [
      { code: 'gd', name: '广东', n: 3 },
      { code: 'zj', name: '浙江', n: 2 },
      { code: 'gd', name: '广东（重复）', n: 1 },
    ];
    expect(optionsOf(api(), rows, undefined)).toEqual([
      { value: 'gd', label: '广东' },
      { value: 'zj', label: '浙江' },
    ]);
    expect(optionsOf(api([{ columnName: 'name' }]), rows, undefined).map((o) => o.value)).toEqual(['广东', '浙江', '广东（重复）']);
    expect(optionsOf(api([{ columnName: 'n' }, { columnName: 'code' }]), rows, undefined)[0]).toEqual({ value: 3, label: 'gd' });
    expect(optionsOf(api(), rows, '浙')).toEqual([{ value: 'zj', label: '浙江' }]);
    expect(optionsOf(api(), rows, 'GD')).toEqual([{ value: 'gd', label: '广东' }]);
  });

  it('takes a list of scalars as it is, caps the list, and refuses an answer that is not a list', () => {
    expect(optionsOf(api(), ['a', 1, null, 'a'], undefined)).toEqual([
      { value: 'a', label: 'a' },
      { value: 1, label: '1' },
    ]);
    const many = Array.from({ length: DATA_API_OPTIONS_MAX + 50 }, (_, i) => ({ id: i }));
    expect(optionsOf(api(), many, undefined)).toHaveLength(DATA_API_OPTIONS_MAX);
    expect(() => optionsOf(api(), { rows: [] }, undefined)).toThrow(dataApiMessages.optionsNotList);
  });
});

describe.each(kinds)('pick-list route on %s', (kind) => {
  let w: DatasetWorld;
  let categoryId: number;

  async function createdApi(payload: Record<string, unknown>): Promise<{ id: number; apiKey: string }> {
    const res = await call(w.server, 'POST', '/api/dataapi/apis', {
      headers: w.admin,
      payload: { categoryId, apiType: 1, datasourceId: w.warehouseId, apiKey: uniqueKey('opt'), apiName: '选项', ...payload },
    });
    if (res.status !== 200) throw new Error(`save: ${res.status} ${res.raw.body}`);
    return res.body.data;
  }
  const options = (id: number, headers: Headers, q?: string): Promise<Call> =>
    call(w.server, 'GET', `/api/dataapi/apis/${id}/options`, { headers, ...(q === undefined ? {} : { query: { q } }) });

  beforeAll(async () => {
    w = await datasetWorld(kind);
    categoryId = (await call(w.server, 'POST', '/api/dataapi/categories', { headers: w.admin, payload: { categoryName: uniqueKey('选项分类') } })).body.data.id;
  }, 120_000);
  afterAll(() => w?.close());

  it('answers the distinct values of a published API for any signed-in user with the table granted', async () => {
    const api = await createdApi({ querySql: 'SELECT province, province AS label FROM orders ORDER BY province' });
    const provinces = (await w.direct('SELECT DISTINCT province FROM orders ORDER BY province')).map((r) => r.province);
    const all = await options(api.id, w.admin);
    expect(all.status).toBe(200);
    expect(all.body.data.options.map((o: { value: string }) => o.value)).toEqual(provinces);
    expect(all.body.data.options[0]).toEqual({ value: provinces[0], label: provinces[0] });
    const searched = await options(api.id, w.admin, '广');
    expect(searched.body.data.options.every((o: { label: string }) => o.label.includes('广'))).toBe(true);
    expect(searched.body.data.options.length).toBeGreaterThan(0);

    // Not the author: the pick-list reads with the viewer's own table grants.
    const stranger = await w.member();
    const refused = await options(api.id, stranger.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/^没有数据(源|表)【.+】的使用权限/);
    const granted = await w.member();
    await w.group([granted.id], ['orders']);
    expect((await options(api.id, granted.headers)).body.data.options).toHaveLength(provinces.length);
  });

  it('lists the online APIs any signed-in user may take a pick-list from, names only', async () => {
    const online = await createdApi({ apiName: uniqueKey('大区列表'), querySql: 'SELECT DISTINCT province FROM orders' });
    const offline = await createdApi({ apiName: uniqueKey('停用接口'), querySql: 'SELECT DISTINCT province FROM orders' });
    await call(w.server, 'PUT', `/api/dataapi/apis/${offline.id}/status`, { headers: w.admin, payload: { apiStatus: 0 } });
    const member = await w.member();
    // The member made neither API: their own list (dataapiList) is empty, the pick-list sources are not.
    expect((await call(w.server, 'GET', '/api/dataapi/apis', { headers: member.headers })).body.data.records).toEqual([]);
    const sources = await call(w.server, 'GET', '/api/dataapi/pick-sources', { headers: member.headers });
    expect(sources.status).toBe(200);
    const ids = sources.body.data.map((s: { id: number }) => s.id);
    expect(ids).toContain(online.id);
    expect(ids).not.toContain(offline.id);
    expect(Object.keys(sources.body.data[0]).sort()).toEqual(['apiKey', 'apiName', 'id']);
  });

  it('refuses an unknown or offline API and names a required parameter without a default', async () => {
    const missing = await options(999_999, w.admin);
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(dataApiMessages.apiNotFound);
    const api = await createdApi({ querySql: 'SELECT order_id FROM orders ORDER BY order_id LIMIT 3' });
    await call(w.server, 'PUT', `/api/dataapi/apis/${api.id}/status`, { headers: w.admin, payload: { apiStatus: 0 } });
    const offline = await options(api.id, w.admin);
    expect(offline.status).toBe(403);
    expect(offline.body.msg).toBe(dataApiMessages.apiOffline);
    const withParam = await createdApi({
      querySql: 'SELECT order_id FROM orders WHERE province = ${p}',
      note: JSON.stringify({ params: [{ name: '省份', key: 'p', datatype: 'string' }] }),
    });
    const noDefault = await options(withParam.id, w.admin);
    expect(noDefault.status).toBe(400);
    expect(noDefault.body.msg).toBe('缺少必填参数【p】');
  });
});
