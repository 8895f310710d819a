import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/fixtures.ts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';

/** The OpenAPI 3.1 document of the published APIs: valid, typed, and privilege-aware. */
describe('data-API OpenAPI document', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  let ids: Record<string, number>;
  let secret: string;
  const stamp = Date.now().toString(36);
  const key = (stem: string) => `${stem}_${stamp}`;

  beforeAll(async () => {
    server = await createTestServer('pglite', {}, { warehouse: true });
    admin = await server.login();
    const categoryId = (await call(server, 'POST', '/api/dataapi/categories', { headers: admin, payload: { categoryName: '文档' } })).body.data.id;
    const sources = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
    const datasourceId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id;
    await call(server, 'PUT', '/api/dataapi/settings', { headers: admin, payload: { allowedHosts: ['example.com'] } });
    const save = async (payload: Record<string, unknown>) => {
      const res = await call(server, 'POST', '/api/dataapi/apis', { headers: admin, payload: { categoryId, datasourceId, ...payload } });
      if (res.status !== 200) throw new Error(`${res.status} ${res.raw.body}`);
      return res.body.data.id as number;
    };
    ids = {
      sql: await save({
        apiType: 1,
        apiKey: key('orders'),
        apiName: '订单',
        remark: '按省份查询订单',
        querySql: 'SELECT order_id, province, amount FROM orders WHERE province = ${p} AND order_date >= CAST(${since} AS DATE)',
        note: JSON.stringify({
          showFields: [
            { columnName: 'order_id', columnComments: '订单编号', dataType: 0 },
            { columnName: 'amount', columnComments: '金额', dataType: 1 },
          ],
          params: [
            { name: '省份', key: 'p', datatype: 'string' },
            { name: '起始日', key: 'since', datatype: 'string', def: '2024-01-01' },
            { name: '月份', key: 'm', datatype: 'month', def: '202401' },
          ],
        }),
      }),
      table: await save({
        apiType: 3,
        apiKey: key('table'),
        apiName: '表',
        queryTable: 'orders',
        queryParam: [{ title: '订单', columnName: 'order_id', paramName: 'id', columnType: 'LONG', optionalStatus: 1 }],
      }),
      external: await save({ apiType: 2, apiKey: key('ext'), apiName: '外部', apiUrl: 'https://example.com/data', apiMethod: 'post', chartType: 2 }),
      offline: await save({ apiType: 1, apiKey: key('off'), apiName: '下线', apiStatus: 0, querySql: 'SELECT 1 AS x' }),
    };
    const created = await call(server, 'POST', '/api/dataapi/keys', { headers: admin, payload: { keyName: '文档', apiIds: [ids.table] } });
    secret = created.body.data.secret;
  }, 120_000);
  afterAll(() => server?.close());

  const fetchDoc = (headers: Record<string, string>) => server.app.inject({ method: 'GET', url: '/open/api-docs/openapi.json', headers });

  it('validates, with typed parameters, required ones marked, response schemas and the security schemes', async () => {
    const res = await fetchDoc(admin);
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const result = await validate(structuredClone(doc));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([`/open/api/${key('ext')}`, `/open/api/${key('orders')}`, `/open/api/${key('table')}`]);
    const get = doc.paths[`/open/api/${key('orders')}`].get;
    expect(get.parameters).toEqual([
      { name: 'p', in: 'query', required: true, description: '省份（文本）', schema: { type: 'string' } },
      { name: 'since', in: 'query', required: false, description: '起始日（文本）', schema: { type: 'string', default: '2024-01-01' } },
      {
        name: 'm',
        in: 'query',
        required: false,
        description: '月份（月份（yyyyMM））',
        schema: { type: 'string', pattern: '^[0-9]{6}$', examples: ['202401'], default: '202401' },
      },
    ]);
    const rows = get.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(rows.items.properties)).toEqual(['order_id', 'amount']);
    expect(rows.items.properties.amount.description).toBe('金额');
    const post = doc.paths[`/open/api/${key('table')}`].post;
    expect(post.requestBody.content['application/json'].schema).toMatchObject({ required: ['id'], properties: { id: { type: 'integer' } } });
    // The validator has teeth: the same document with an untyped path parameter is refused.
    const broken = structuredClone(doc);
    broken.paths[`/open/api/${key('orders')}`].get.parameters[0].in = 'path';
    expect((await validate(broken)).valid).toBe(false);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'accessKey',
      'signature',
      'signatureKey',
      'signatureNonce',
      'signatureTimestamp',
      'userToken',
    ]);
  });

  it('shows an access key only the APIs it may call, and nothing without credentials', async () => {
    const scoped = (await fetchDoc({ authorization: `Bearer ${secret}` })).json();
    expect(Object.keys(scoped.paths)).toEqual([`/open/api/${key('table')}`]);
    const result = await validate(structuredClone(scoped));
    expect(result.valid).toBe(true);
    expect((await fetchDoc({})).statusCode).toBe(401);
  });
});
