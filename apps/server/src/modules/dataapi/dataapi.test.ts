import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_API_FAULT_THRESHOLD, dataApiMessages, encodeBase64Json } from '@shutu/contracts';
import { call, type Call } from '../../../test/fixtures.ts';
import { datasetWorld, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { sign } from './keys.ts';

/**
 * Data APIs end to end through the app (docs/dataapi.md): records and their messages, the
 * published runtime with a bearer key, a signature (replays and stale timestamps refused) and a
 * user token, offline and faulty APIs, the rate limit, the call log and p95.
 */

const kinds = await storeKinds();

let seq = 0;
const uniqueKey = (stem: string) => `${stem}_${Date.now().toString(36)}_${++seq}`;

describe.each(kinds)('data APIs on %s', (kind) => {
  let w: DatasetWorld;
  let categoryId: number;

  const open = (
    apiKey: string,
    options: { headers?: Headers; query?: Record<string, string | number>; payload?: unknown; method?: 'GET' | 'POST' } = {},
  ): Promise<Call> => call(w.server, options.method ?? 'GET', `/open/api/${apiKey}`, options);

  async function saveApi(payload: Record<string, unknown>, headers: Headers = w.admin): Promise<Call> {
    return call(w.server, 'POST', '/api/dataapi/apis', { headers, payload: { categoryId, apiType: 1, datasourceId: w.warehouseId, ...payload } });
  }

  async function createdApi(payload: Record<string, unknown>, headers: Headers = w.admin): Promise<{ id: number; apiKey: string }> {
    const res = await saveApi(payload, headers);
    if (res.status !== 200) throw new Error(`save: ${res.status} ${res.raw.body}`);
    return res.body.data;
  }

  async function createdKey(apiIds: number[], rateLimit = 600): Promise<{ id: number; accessKey: string; secret: string }> {
    const res = await call(w.server, 'POST', '/api/dataapi/keys', { headers: w.admin, payload: { keyName: uniqueKey('密钥'), apiIds, rateLimit } });
    if (res.status !== 200) throw new Error(`key: ${res.status} ${res.raw.body}`);
    return res.body.data;
  }

  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

  const byProvince = {
    querySql: 'SELECT order_id, province FROM orders WHERE province = ${p} ORDER BY order_id',
    note: JSON.stringify({
      params: [{ name: '省份', key: 'p', datatype: 'string' }],
      showFields: [{ columnName: 'order_id', columnComments: '订单编号', dataType: 0 }],
    }),
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const res = await call(w.server, 'POST', '/api/dataapi/categories', { headers: w.admin, payload: { categoryName: uniqueKey('接口分类') } });
    categoryId = res.body.data.id;
  }, 120_000);
  afterAll(() => w?.close());

  it('checks a save in the spec order and refuses what cannot run', async () => {
    const type3 = (payload: Record<string, unknown>) => call(w.server, 'POST', '/api/dataapi/apis', { headers: w.admin, payload: { apiType: 3, ...payload } });
    expect((await type3({})).body.msg).toBe(dataApiMessages.categoryRequired);
    expect((await type3({ categoryId })).body.msg).toBe(dataApiMessages.apiKeyRequired);
    expect((await type3({ categoryId, apiKey: uniqueKey('k') })).body.msg).toBe(dataApiMessages.apiNameRequired);
    expect((await type3({ categoryId, apiKey: uniqueKey('k'), apiName: '名' })).body.msg).toBe(dataApiMessages.datasourceRequired);
    expect((await type3({ categoryId, apiKey: uniqueKey('k'), apiName: '名', datasourceId: w.warehouseId })).body.msg).toBe(dataApiMessages.tableRequired);

    const writes = await saveApi({ apiKey: uniqueKey('w'), apiName: '写', querySql: 'DELETE FROM orders' });
    expect(writes.status).toBe(400);
    const unknown = await saveApi({ apiKey: uniqueKey('u'), apiName: '未定义', querySql: 'SELECT ${nope} AS x' });
    expect(unknown.body.msg).toBe('SQL 引用了未定义的参数【nope】');
    const ownPlaceholder = await saveApi({ apiKey: uniqueKey('o'), apiName: '占位符', querySql: 'SELECT $1 AS x' });
    expect(ownPlaceholder.status).toBe(400);
    const syntax = await call(w.server, 'POST', '/api/dataapi/apis', {
      headers: w.admin,
      payload: { categoryId, apiType: 2, apiKey: uniqueKey('js'), apiName: '外部', apiUrl: 'http://127.0.0.1:9/x', apiJsFunction: 'function (d) { return d' },
    });
    // The host is not allowed yet: the URL is refused before the handler is compiled.
    expect(syntax.status).toBe(400);
    await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { allowedHosts: ['127.0.0.1'] } });
    const again = await call(w.server, 'POST', '/api/dataapi/apis', {
      headers: w.admin,
      payload: { categoryId, apiType: 2, apiKey: uniqueKey('js'), apiName: '外部', apiUrl: 'http://127.0.0.1:9/x', apiJsFunction: 'function (d) { return d' },
    });
    expect(again.body.msg).toBe(dataApiMessages.checkSyntax);
    const metadata = await call(w.server, 'POST', '/api/dataapi/apis', {
      headers: w.admin,
      payload: { categoryId, apiType: 2, apiKey: uniqueKey('md'), apiName: '元数据', apiUrl: 'http://169.254.169.254/latest/meta-data' },
    });
    expect(metadata.body.msg).toBe('不允许访问本机、内网链路本地或云元数据地址【169.254.169.254】');
    const first = await createdApi({ apiKey: uniqueKey('dup'), apiName: '重复', ...byProvince });
    expect((await saveApi({ apiKey: first.apiKey, apiName: '重复2', ...byProvince })).body.msg).toBe(dataApiMessages.apiKeyExists);
    const saved = (await call(w.server, 'GET', `/api/dataapi/apis/${first.id}`, { headers: w.admin })).body.data;
    expect(saved).toMatchObject({ apiType: 1, apiStatus: 1, apiMethod: 'get', chartType: 0, apiParamType: 0, apiFormal: 1 });
    expect(saved.apiJsFunction).toContain('return data');
  });

  it('binds parameters: a typed value is one value, a wrong or missing one is a 400 naming it', async () => {
    const api = await createdApi({
      apiKey: uniqueKey('bind'),
      apiName: '按省份',
      querySql: 'SELECT COUNT(*) AS n FROM orders WHERE province = ${p} AND amount >= ${min}',
      note: JSON.stringify({
        params: [
          { name: '省份', key: 'p', datatype: 'string' },
          { name: '最小金额', key: 'min', datatype: 'number', def: 0 },
          { name: '', key: '', datatype: 'string' },
        ],
      }),
    });
    const key = await createdKey([api.id]);
    const guangdong = (await w.direct("SELECT COUNT(*) AS n FROM orders WHERE province = '广东'"))[0]!.n;
    const ok = await open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ code: 200, success: true });
    expect(Number(ok.body.data[0].n)).toBe(Number(guangdong));
    const injected = await open(api.apiKey, { headers: bearer(key.secret), query: { p: "广东' OR '1'='1" } });
    expect(Number(injected.body.data[0].n)).toBe(0);
    const orTrue = await open(api.apiKey, { headers: bearer(key.secret), query: { p: '1 OR 1=1' } });
    expect(Number(orTrue.body.data[0].n)).toBe(0);
    const wrongType = await open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东', min: '1 OR 1=1' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.msg).toBe('参数【min】的值不合法：应为数字');
    const missing = await open(api.apiKey, { headers: bearer(key.secret) });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('缺少必填参数【p】');
    const post = await open(api.apiKey, { method: 'POST', headers: bearer(key.secret), payload: { p: '广东', min: 0 } });
    expect(Number(post.body.data[0].n)).toBe(Number(guangdong));
    const form = await w.server.app.inject({
      method: 'POST',
      url: `/open/api/${api.apiKey}`,
      headers: { ...bearer(key.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'p=%E5%B9%BF%E4%B8%9C',
    });
    expect(Number(form.json().data[0].n)).toBe(Number(guangdong));
  });

  it('accepts a signature once: a replayed nonce and a stale timestamp are refused', async () => {
    const api = await createdApi({ apiKey: uniqueKey('sig'), apiName: '签名', ...byProvince });
    const key = await createdKey([api.id]);
    const signed = (timestamp: number, nonce: string, secret = key.secret) => ({
      'x-access-key': key.accessKey,
      'x-timestamp': String(timestamp),
      'x-nonce': nonce,
      'x-signature': sign(secret, key.accessKey, String(timestamp), nonce),
    });
    const headers = signed(Date.now(), randomUUID());
    const first = await open(api.apiKey, { headers, query: { p: '广东' } });
    expect(first.status).toBe(200);
    expect(first.body.data.length).toBeGreaterThan(0);
    const replay = await open(api.apiKey, { headers, query: { p: '广东' } });
    expect(replay.status).toBe(401);
    expect(replay.body.msg).toBe(dataApiMessages.nonceReplayed);
    const stale = await open(api.apiKey, { headers: signed(Date.now() - 10 * 60_000, randomUUID()), query: { p: '广东' } });
    expect(stale.body.msg).toBe(dataApiMessages.signatureExpired);
    const forged = await open(api.apiKey, { headers: signed(Date.now(), randomUUID(), 'sk_wrong'), query: { p: '广东' } });
    expect(forged.body.msg).toBe(dataApiMessages.signatureInvalid);
  });

  it('refuses callers without credentials, keys out of scope or disabled, and offline APIs', async () => {
    const api = await createdApi({ apiKey: uniqueKey('scope'), apiName: '范围', ...byProvince });
    const other = await createdApi({ apiKey: uniqueKey('other'), apiName: '其他', ...byProvince });
    const key = await createdKey([other.id]);
    expect((await open(api.apiKey, { query: { p: '广东' } })).body.msg).toBe(dataApiMessages.credentialsRequired);
    const outOfScope = await open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东' } });
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body.msg).toBe(dataApiMessages.keyNotScoped);
    await call(w.server, 'PUT', `/api/dataapi/keys/${key.id}`, { headers: w.admin, payload: { enabled: false } });
    expect((await open(other.apiKey, { headers: bearer(key.secret), query: { p: '广东' } })).body.msg).toBe(dataApiMessages.keyInvalid);
    const keys = (await call(w.server, 'GET', '/api/dataapi/keys', { headers: w.admin })).body.data;
    expect(JSON.stringify(keys)).not.toContain(key.secret);

    const userCall = await open(api.apiKey, { headers: w.admin, query: { p: '广东' } });
    expect(userCall.status).toBe(200);
    await call(w.server, 'PUT', `/api/dataapi/apis/${api.id}/status`, { headers: w.admin, payload: { apiStatus: 0 } });
    const offline = await open(api.apiKey, { headers: w.admin, query: { p: '广东' } });
    expect(offline.status).toBe(403);
    expect(offline.body.msg).toBe(dataApiMessages.apiOffline);
    expect((await open('no_such_api', { headers: w.admin })).status).toBe(404);
  });

  it('refuses a revoked key, a narrowed scope and an offline API on the very next call, though both were just read', async () => {
    const api = await createdApi({ apiKey: uniqueKey('memo'), apiName: '即时', ...byProvince });
    const other = await createdApi({ apiKey: uniqueKey('memo2'), apiName: '即时二', ...byProvince });
    const key = await createdKey([api.id, other.id]);
    const signedKey = await createdKey([api.id]);
    const byKey = () => open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东' } });
    expect((await byKey()).status).toBe(200);
    expect((await open(other.apiKey, { headers: bearer(key.secret), query: { p: '广东' } })).status).toBe(200);

    await call(w.server, 'PUT', `/api/dataapi/keys/${key.id}`, { headers: w.admin, payload: { apiIds: [api.id] } });
    expect((await open(other.apiKey, { headers: bearer(key.secret), query: { p: '广东' } })).body.msg).toBe(dataApiMessages.keyNotScoped);

    await call(w.server, 'PUT', `/api/dataapi/apis/${api.id}/status`, { headers: w.admin, payload: { apiStatus: 0 } });
    const offline = await byKey();
    expect(offline.status).toBe(403);
    expect(offline.body.msg).toBe(dataApiMessages.apiOffline);
    await call(w.server, 'PUT', `/api/dataapi/apis/${api.id}/status`, { headers: w.admin, payload: { apiStatus: 1 } });
    expect((await byKey()).status).toBe(200);

    expect((await call(w.server, 'DELETE', `/api/dataapi/keys/${key.id}`, { headers: w.admin })).status).toBe(200);
    const revoked = await byKey();
    expect(revoked.status).toBe(401);
    expect(revoked.body.msg).toBe(dataApiMessages.keyInvalid);

    const signedCall = (nonce: string, timestamp = String(Date.now())) => ({
      'x-access-key': signedKey.accessKey,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      'x-signature': sign(signedKey.secret, signedKey.accessKey, timestamp, nonce),
    });
    expect((await open(api.apiKey, { headers: signedCall(randomUUID()), query: { p: '广东' } })).status).toBe(200);
    await call(w.server, 'PUT', `/api/dataapi/keys/${signedKey.id}`, { headers: w.admin, payload: { enabled: false } });
    expect((await open(api.apiKey, { headers: signedCall(randomUUID()), query: { p: '广东' } })).body.msg).toBe(dataApiMessages.keyInvalid);
  });

  it('reads as the API author for an access key, their table grants checked at save and on every call', async () => {
    const author = await w.member();
    const group = await w.group([author.id], ['orders']);
    const refused = await saveApi({ apiKey: uniqueKey('users'), apiName: '用户', querySql: 'SELECT COUNT(*) AS n FROM users' }, author.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有数据表【users】的使用权限，请联系管理员授权');
    const api = await createdApi({ apiKey: uniqueKey('author'), apiName: '作者', querySql: 'SELECT COUNT(*) AS n FROM orders' }, author.headers);
    const key = await createdKey([api.id]);
    expect((await open(api.apiKey, { headers: bearer(key.secret) })).status).toBe(200);
    // The grant is taken away: the key no longer reads what its author cannot, and the API is not blamed for it.
    await call(w.server, 'PUT', `/api/perm/groups/${group}/datasources/${w.warehouseId}`, { headers: w.admin, payload: { tableNames: [] } });
    const after = await open(api.apiKey, { headers: bearer(key.secret) });
    expect(after.status).toBe(403);
    expect((await call(w.server, 'GET', `/api/dataapi/apis/${api.id}`, { headers: w.admin })).body.data).toMatchObject({ apiStatus: 1, failCount: 0 });
  });

  it('limits calls per key per minute', async () => {
    const api = await createdApi({ apiKey: uniqueKey('rate'), apiName: '频率', ...byProvince });
    const key = await createdKey([api.id], 3);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东' } })).status);
    // Three in the minute; a call at a minute's edge may start a new window.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses).toContain(429);
    const limited = await open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东' } });
    if (limited.status === 429) expect(limited.body.msg).toBe(dataApiMessages.rateLimited);
  });

  it('turns faulty after 5 consecutive failures, and a successful preview puts it back online', async () => {
    const api = await createdApi({
      apiKey: uniqueKey('fault'),
      apiName: '故障',
      querySql: 'SELECT CAST(${v} AS INTEGER) AS n',
      note: JSON.stringify({ params: [{ name: '值', key: 'v', datatype: 'string' }] }),
    });
    for (let i = 0; i < DATA_API_FAULT_THRESHOLD - 1; i++) expect((await open(api.apiKey, { headers: w.admin, query: { v: 'x' } })).status).toBe(400);
    // A success in between starts the count again.
    expect((await open(api.apiKey, { headers: w.admin, query: { v: '7' } })).body.data).toEqual([{ n: 7 }]);
    for (let i = 0; i < DATA_API_FAULT_THRESHOLD; i++) await open(api.apiKey, { headers: w.admin, query: { v: 'x' } });
    const detail = (await call(w.server, 'GET', `/api/dataapi/apis/${api.id}`, { headers: w.admin })).body.data;
    expect(detail).toMatchObject({ apiStatus: 2, failCount: DATA_API_FAULT_THRESHOLD });
    const faulty = await open(api.apiKey, { headers: w.admin, query: { v: '7' } });
    expect(faulty.status).toBe(503);
    expect(faulty.body.msg).toBe(dataApiMessages.apiFaulty);
    const unsaved = await call(w.server, 'POST', '/api/dataapi/preview', { headers: w.admin, payload: { apiKey: 'never_saved' } });
    expect(unsaved.body.msg).toBe(dataApiMessages.mustSaveToPreview);
    const preview = await call(w.server, 'POST', '/api/dataapi/preview', { headers: w.admin, payload: { apiKey: api.apiKey, params: { v: '7' } } });
    expect(preview.body.data).toMatchObject({ data: [{ n: 7 }], rows: 1 });
    expect((await open(api.apiKey, { headers: w.admin, query: { v: '7' } })).status).toBe(200);
  });

  it('logs every call, refusals included, with p95 per API', async () => {
    const api = await createdApi({ apiKey: uniqueKey('log'), apiName: '日志', ...byProvince });
    await open(api.apiKey, { headers: w.admin, query: { p: '广东' } });
    await open(api.apiKey, { headers: w.admin });
    await open(api.apiKey, {});
    const logs = (await call(w.server, 'GET', '/api/dataapi/logs', { headers: w.admin, query: { apiId: api.id } })).body.data;
    expect(logs.total).toBe(3);
    expect(logs.records.map((r: { status: number }) => r.status)).toEqual([401, 400, 200]);
    expect(logs.records[2]).toMatchObject({ apiKey: api.apiKey, params: JSON.stringify({ p: '广东' }) });
    expect(logs.records[2].rows).toBeGreaterThan(0);
    const stats = (await call(w.server, 'GET', '/api/dataapi/stats', { headers: w.admin })).body.data;
    const mine = stats.find((s: { apiId: number }) => s.apiId === api.id);
    expect(mine).toMatchObject({ calls: 3, failures: 2 });
    expect(typeof mine.p95Ms).toBe('number');
  });

  it('keeps the call log for the retention days: older calls are pruned, the setting kept apart from the allow-list', async () => {
    const api = await createdApi({ apiKey: uniqueKey('keep'), apiName: '保留', ...byProvince });
    await open(api.apiKey, { headers: w.admin, query: { p: '广东' } });
    const old = new Date(Date.now() - 40 * 86_400_000);
    await w.server.ctx.db
      .insertInto('dataApiCallLog')
      .values({
        apiId: api.id,
        apiKey: api.apiKey,
        accessKey: null,
        userId: null,
        params: '{}',
        status: 200,
        rowCount: 1,
        durationMs: 1,
        errorMsg: null,
        createTime: old,
      })
      .execute();
    const count = async () => (await call(w.server, 'GET', '/api/dataapi/logs', { headers: w.admin, query: { apiId: api.id } })).body.data.total;
    expect(await count()).toBe(2);
    const before = (await call(w.server, 'GET', '/api/dataapi/settings', { headers: w.admin })).body.data;
    expect(before.logRetentionDays).toBe(90);
    const bad = await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { logRetentionDays: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('日志保留天数须为 1 到 3650 的整数');
    const saved = await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { logRetentionDays: 30 } });
    expect(saved.body.data).toEqual({ allowedHosts: before.allowedHosts, logRetentionDays: 30, cacheSeconds: before.cacheSeconds });
    expect(await count()).toBe(1);
    await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { logRetentionDays: 90 } });
  });

  it('shares answers of identical calls for the cache time, re-checking the caller on every call', async () => {
    const author = await w.member();
    const group = await w.group([author.id], ['orders']);
    const api = await createdApi(
      {
        apiKey: uniqueKey('cache'),
        apiName: '缓存',
        querySql: 'SELECT random() AS r, COUNT(*) AS n FROM orders WHERE province = ${p}',
        note: JSON.stringify({ params: [{ name: '省份', key: 'p', datatype: 'string' }] }),
      },
      author.headers,
    );
    const key = await createdKey([api.id]);
    const r = async (p: string) => {
      const res = await open(api.apiKey, { headers: bearer(key.secret), query: { p } });
      expect(res.status).toBe(200);
      return res.body.data[0].r as number;
    };
    expect(await r('广东')).not.toBe(await r('广东'));
    const bad = await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { cacheSeconds: -1 } });
    expect(bad.body.msg).toBe('缓存时间须为 0 到 3600 的整数秒（0 为不缓存）');
    await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { cacheSeconds: 60 } });
    try {
      const first = await r('广东');
      expect(await r('广东')).toBe(first);
      expect(await r('浙江')).not.toBe(first);
      // The author loses the grant: the kept answer is not handed out any more.
      await call(w.server, 'PUT', `/api/perm/groups/${group}/datasources/${w.warehouseId}`, { headers: w.admin, payload: { tableNames: [] } });
      expect((await open(api.apiKey, { headers: bearer(key.secret), query: { p: '广东' } })).status).toBe(403);
    } finally {
      await call(w.server, 'PUT', '/api/dataapi/settings', { headers: w.admin, payload: { cacheSeconds: 0 } });
    }
  });

  it('serves type-3 APIs: a condition per parameter given, required ones enforced', async () => {
    const api = await createdApi({
      apiType: 3,
      apiKey: uniqueKey('t3'),
      apiName: '表接口',
      queryTable: 'orders',
      note: JSON.stringify({ showFields: [{ columnName: 'order_id' }, { columnName: 'province' }] }),
      queryParam: [
        { title: '省份', columnName: 'province', paramName: 'prov', columnType: 'STRING(32)', optionalStatus: 1 },
        { title: '订单', columnName: 'order_id', paramName: 'id', columnType: 'LONG', optionalStatus: 0 },
      ],
    });
    const n = (await w.direct("SELECT COUNT(*) AS n FROM orders WHERE province = '广东'"))[0]!.n;
    const rows = await open(api.apiKey, { headers: w.admin, query: { prov: '广东' } });
    expect(rows.body.data.length).toBe(Number(n));
    expect(Object.keys(rows.body.data[0]).sort()).toEqual(['order_id', 'province']);
    expect((await open(api.apiKey, { headers: w.admin, query: { prov: '1 OR 1=1' } })).body.data).toEqual([]);
    expect((await open(api.apiKey, { headers: w.admin })).body.msg).toBe('缺少必填参数【prov】');
    expect((await open(api.apiKey, { headers: w.admin, query: { prov: '广东', id: 'abc' } })).body.msg).toBe('参数【id】的值不合法：应为整数');
  });

  it('takes dataapiSubmit in the spec form: Base64 of the JSON, queryParam as JSON text', async () => {
    const form = {
      categoryId,
      apiType: 3,
      apiKey: uniqueKey('b64'),
      apiName: '编码保存',
      datasourceId: w.warehouseId,
      queryTable: 'orders',
      queryParam: JSON.stringify([{ title: '省份', columnName: 'province', paramName: 'prov', columnType: 'STRING', optionalStatus: 1 }]),
    };
    const saved = await call(w.server, 'POST', '/api/dataapi/apis', { headers: w.admin, payload: { payload: encodeBase64Json(form) } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.queryParam).toEqual([{ title: '省份', columnName: 'province', paramName: 'prov', columnType: 'STRING', optionalStatus: 1 }]);
    expect(typeof saved.body.data.id).toBe('number');
    const bad = await call(w.server, 'POST', '/api/dataapi/apis', { headers: w.admin, payload: { payload: '@@不是Base64@@' } });
    expect(bad.status).toBe(400);
    const notList = await call(w.server, 'POST', '/api/dataapi/apis', {
      headers: w.admin,
      payload: { ...form, apiKey: uniqueKey('b64'), queryParam: '{oops' },
    });
    expect(notList.status).toBe(400);
  });

  it('lists, copies and deletes; members see and change only their own APIs', async () => {
    const api = await createdApi({ apiKey: uniqueKey('copy'), apiName: '复制源', ...byProvince });
    const copy = await call(w.server, 'POST', `/api/dataapi/apis/${api.id}/copy`, { headers: w.admin, payload: {} });
    expect(copy.body.data).toMatchObject({ apiKey: `${api.apiKey}_copy`, apiStatus: 0, apiName: '复制源_副本' });
    const member = await w.member();
    expect((await call(w.server, 'GET', `/api/dataapi/apis/${api.id}`, { headers: member.headers })).status).toBe(403);
    const list = await call(w.server, 'GET', '/api/dataapi/apis', { headers: member.headers });
    expect(list.body.data.total).toBe(0);
    const mine = (await call(w.server, 'GET', '/api/dataapi/apis', { headers: w.admin, query: { apiName: api.apiKey, apiTypes: '1,2' } })).body.data;
    expect(mine.records.map((r: { apiKey: string }) => r.apiKey).sort()).toEqual([api.apiKey, `${api.apiKey}_copy`]);
    expect((await call(w.server, 'DELETE', `/api/dataapi/categories/${categoryId}`, { headers: w.admin })).status).toBe(409);
    expect((await call(w.server, 'DELETE', `/api/dataapi/apis/${copy.body.data.id}`, { headers: w.admin })).body.msg).toBe(dataApiMessages.deleted);
  });
});
