import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataApiMessages } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';

/** Enumeration dictionaries saved from a data-API preview (docs/dataapi.md "Save as enumeration dictionary"). */
const kinds = await storeKinds();

describe.each(kinds)('data-API dictionaries on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;

  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const save = (payload: unknown) => call(server, 'POST', '/api/dataapi/dicts', { headers: admin, payload });
  const tree = [
    { key: 1, value: '华东', children: [{ key: 11, value: '浙江' }] },
    { key: 2, value: '华北' },
  ];

  it('saves a tree under its name, lists it, and replaces it when saved again', async () => {
    const first = await save({ keyCode: '区域', content: JSON.stringify(tree) });
    expect(first.status).toBe(200);
    expect(first.body.msg).toBe(dataApiMessages.saved);
    expect(first.body.data.content).toEqual(tree);

    const again = await save({ keyCode: '区域', content: JSON.stringify(tree.slice(0, 1)) });
    expect(again.body.data.id).toBe(first.body.data.id);
    const got = await call(server, 'GET', `/api/dataapi/dicts/${encodeURIComponent('区域')}`, { headers: admin });
    expect(got.body.data.content).toEqual(tree.slice(0, 1));
    const list = await call(server, 'GET', '/api/dataapi/dicts', { headers: admin });
    expect(list.body.data.map((d: { keyCode: string }) => d.keyCode)).toContain('区域');
  });

  it('refuses a missing name (请输入字典名) and content that is not a tree, writing nothing', async () => {
    const noName = await save({ keyCode: ' ', content: '[]' });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe(dataApiMessages.dictNameRequired);
    const bad = await save({ keyCode: '坏字典', content: JSON.stringify([{ value: 'no key' }]) });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe(dataApiMessages.dictContentInvalid);
    const missing = await call(server, 'GET', `/api/dataapi/dicts/${encodeURIComponent('坏字典')}`, { headers: admin });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(dataApiMessages.dictNotFound);
  });
});
