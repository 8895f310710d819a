import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataApiMessages } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { refusedAddress } from './external.ts';

/**
 * External APIs (type 2): the server calls a local HTTP server with the API's method, headers
 * and parameter type; the sandboxed handler reshapes the answer; runaway handlers are stopped
 * with a clear message while other calls are served; hosts off the allow-list and link-local or
 * metadata addresses are refused.
 */
describe('external data APIs', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  let categoryId: number;
  let upstream: http.Server;
  let base: string;
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (req.url?.startsWith('/redirect')) {
          res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            items: [
              { n: 'a', v: 1 },
              { n: 'b', v: 2 },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    server = await createTestServer('pglite');
    admin = await server.login();
    categoryId = (await call(server, 'POST', '/api/dataapi/categories', { headers: admin, payload: { categoryName: '外部' } })).body.data.id;
    await call(server, 'PUT', '/api/dataapi/settings', { headers: admin, payload: { allowedHosts: ['127.0.0.1'] } });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  let n = 0;
  async function external(payload: Record<string, unknown>): Promise<string> {
    const apiKey = `ext_${Date.now().toString(36)}_${++n}`;
    const res = await call(server, 'POST', '/api/dataapi/apis', {
      headers: admin,
      payload: { categoryId, apiType: 2, apiKey, apiName: apiKey, apiUrl: `${base}/data`, ...payload },
    });
    if (res.status !== 200) throw new Error(`${res.status} ${res.raw.body}`);
    return apiKey;
  }
  const open = (apiKey: string, query: Record<string, string> = {}) => call(server, 'GET', `/open/api/${apiKey}`, { headers: admin, query });

  const params = JSON.stringify({ params: [{ key: 'k', datatype: 'number', def: 10 }] });

  it('calls the URL with its method, headers and parameters, and returns what the handler made of the answer', async () => {
    const get = await external({
      note: params,
      apiHeaders: { 'x-token': 'abc' },
      apiJsFunction: 'function (data, params) { return data.items.map(function (x) { return { name: x.n, value: x.v * params.k }; }); }',
    });
    const res = await open(get, { k: '3' });
    expect(res.body.data).toEqual([
      { name: 'a', value: 3 },
      { name: 'b', value: 6 },
    ]);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/data?k=3', headers: { 'x-token': 'abc' } });

    const json = await external({ note: params, apiMethod: 'post', apiParamType: 0 });
    expect((await open(json)).body.data).toEqual({
      items: [
        { n: 'a', v: 1 },
        { n: 'b', v: 2 },
      ],
    });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"k":10}', headers: { 'content-type': 'application/json' } });
    const form = await external({ note: params, apiMethod: 'post', apiParamType: 1 });
    await open(form, { k: '5' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: 'k=5', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

    const preview = await call(server, 'POST', '/api/dataapi/preview', { headers: admin, payload: { apiKey: get, apiParam: JSON.stringify({ k: 2 }) } });
    expect(preview.body.data.data).toEqual([
      { name: 'a', value: 2 },
      { name: 'b', value: 4 },
    ]);
  });

  it('stops an infinite loop and a memory bomb with a clear message while other calls are served', async () => {
    const loop = await external({ apiJsFunction: 'function () { for (;;) {} }' });
    const bomb = await external({ apiJsFunction: 'function () { var s = "x"; for (;;) { s = s + s; } }' });
    const fine = await external({ apiJsFunction: 'function (d) { return d.items.length; }' });
    const started = Date.now();
    const [l, b, f] = await Promise.all([open(loop), open(bomb), open(fine)]);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(l.status).toBe(400);
    expect([dataApiMessages.handlerTimeout, dataApiMessages.handlerKilled]).toContain(l.body.msg);
    expect(b.status).toBe(400);
    expect([dataApiMessages.handlerMemory, dataApiMessages.handlerKilled, dataApiMessages.handlerTimeout]).toContain(b.body.msg);
    expect(f.body.data).toBe(2);
    expect((await open(fine)).body.data).toBe(2);
  });

  it('refuses hosts off the allow-list, metadata addresses and redirects', async () => {
    const api = await external({});
    await call(server, 'PUT', '/api/dataapi/settings', { headers: admin, payload: { allowedHosts: ['example.com'] } });
    const refused = await open(api);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('接口地址的主机【127.0.0.1】不在允许列表中，请联系管理员');
    await call(server, 'PUT', '/api/dataapi/settings', { headers: admin, payload: { allowedHosts: ['127.0.0.1', 'localhost'] } });
    const redirect = await external({ apiUrl: `${base}/redirect` });
    expect((await open(redirect)).body.msg).toBe('外部接口调用失败：HTTP 302');
    const ftp = await call(server, 'POST', '/api/dataapi/apis', {
      headers: admin,
      payload: { categoryId, apiType: 2, apiKey: `ftp_${Date.now()}`, apiName: 'ftp', apiUrl: 'ftp://127.0.0.1/x' },
    });
    expect(ftp.body.msg).toBe(dataApiMessages.urlScheme);
    for (const address of ['169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', '100.100.100.200', 'fd00:ec2::254', '0.0.0.0'])
      expect(refusedAddress(address)).toBe(true);
    for (const address of ['127.0.0.1', '10.0.0.1', '93.184.216.34', '2001:db8::1']) expect(refusedAddress(address)).toBe(false);
  });
});
