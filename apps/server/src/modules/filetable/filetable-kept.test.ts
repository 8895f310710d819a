import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { collect } from '@shutu/connectors';
import type { FileColumn } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { builtinSourceId, call, createUser, type Call } from '../../../test/fixtures.ts';
import { multipart, type MultipartFile } from '../../../test/multipart.ts';
import { findKeptUpload } from '../../platform/files/kept-upload.ts';
import { ownerOf } from '../../platform/files/owner.ts';
import { KEPT_UPLOAD_MS, sweepUploads, uploadDir } from '../../platform/files/upload.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';

/**
 * The file is sent once (docs/filetable.md): the structure call keeps what it received, and the
 * confirm call names it by the fileToken it answered instead of sending it again.
 */

const kinds = await storeKinds();

const CSV = '姓名,城市,金额\n张三,北京,12.5\n李四,"上海, 浦东",3\n';
const COLUMNS: FileColumn[] = [
  { comment: '姓名', columnName: 'name', columnType: 'STRING' },
  { comment: '城市', columnName: 'city', columnType: 'STRING' },
  { comment: '金额', columnName: 'amount', columnType: 'NUMBER' },
];

let seq = 0;
const uniqueTable = () => `kept_${Date.now().toString(36)}_${++seq}`;

describe.each(kinds)('a file table made of the file its structure call received, on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let warehouseId: number;

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    warehouseId = await builtinSourceId(server, admin);
  });
  afterAll(() => server?.close());

  const post = async (url: string, fields: Record<string, string | number>, file?: MultipartFile, headers = admin): Promise<Call> => {
    const body = multipart(fields, file);
    const raw = await server.app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
    return { status: raw.statusCode, body: raw.json(), raw };
  };
  const structure = (file: MultipartFile) => post('/api/filetable/structure', {}, file);
  const confirm = (fields: Record<string, string | number>, headers = admin) =>
    post('/api/filetable/tables', { tableComment: '订单', dsId: warehouseId, tableColumnList: JSON.stringify(COLUMNS), ...fields }, undefined, headers);
  const kept = () => fs.readdirSync(uploadDir(server.ctx.config.dataDir)).filter((n) => n.includes('-kept-'));
  const rowsOf = async (table: string) =>
    (await collect((await getDataSourceDriver(server.ctx, warehouseId)).query(`SELECT * FROM "${table}" ORDER BY name`))).rows;

  it('loads every row of the kept file (a GBK CSV stays GBK), then the token is spent', async () => {
    const read = await structure({ name: '订单.csv', content: iconv.encode(CSV, 'gbk') });
    expect(read.status, read.raw.body).toBe(200);
    expect(read.body.data.encoding).toBe('GBK');
    expect(read.body.data.fileToken).toMatch(/^[0-9a-f]{32}$/);
    expect(kept()).toHaveLength(2); // the file and what it was called

    const tableName = uniqueTable();
    const made = await confirm({ tableName, fileToken: read.body.data.fileToken });
    expect(made.status, made.raw.body).toBe(200);
    expect(made.body.data).toMatchObject({ tableName, fileName: '订单.csv', rowCount: 2 });
    expect(await rowsOf(tableName)).toEqual([
      { name: '张三', city: '北京', amount: 12.5 },
      { name: '李四', city: '上海, 浦东', amount: 3 },
    ]);
    expect(kept()).toEqual([]);

    const again = await confirm({ tableName: uniqueTable(), fileToken: read.body.data.fileToken });
    expect([again.status, again.body.msg]).toEqual([410, '上传的文件已失效，请重新选择文件']);
  });

  it('loads a file of old Mac line ends (a lone CR, seen while it arrived) through the row path, every row', async () => {
    const read = await structure({ name: '旧系统.csv', content: CSV.replaceAll('\n', '\r') });
    expect(read.status, read.raw.body).toBe(200);
    const tableName = uniqueTable();
    const made = await confirm({ tableName, fileToken: read.body.data.fileToken });
    expect(made.status, made.raw.body).toBe(200);
    expect(await rowsOf(tableName)).toEqual([
      { name: '张三', city: '北京', amount: 12.5 },
      { name: '李四', city: '上海, 浦东', amount: 3 },
    ]);
  });

  it('keeps the file when the confirm call is refused, so the corrected form can use it', async () => {
    const read = await structure({ name: '订单.csv', content: CSV });
    const token = read.body.data.fileToken as string;
    const refused = await confirm({ tableName: uniqueTable(), fileToken: token, tableColumnList: JSON.stringify(COLUMNS.slice(0, 2)) });
    expect([refused.status, refused.body.msg]).toEqual([400, '字段配置有 2 列，文件有 3 列，请重新上传文件']);
    const tableName = uniqueTable();
    const made = await confirm({ tableName, fileToken: token });
    expect(made.status, made.raw.body).toBe(200);
    expect(made.body.data.rowCount).toBe(2);
  });

  it("refuses another user's token, a made-up one, and a form with neither file nor token", async () => {
    const read = await structure({ name: '订单.csv', content: CSV });
    const token = read.body.data.fileToken as string;
    const member = await server.login((await createUser(server, admin)).account, 'secret123');
    for (const [fileToken, headers] of [
      [token, member],
      ['0'.repeat(32), admin],
      ['../../etc/passwd', admin],
    ] as const) {
      const res = await confirm({ tableName: uniqueTable(), fileToken }, headers);
      expect([res.status, res.body.msg], fileToken).toEqual([410, '上传的文件已失效，请重新选择文件']);
    }
    const neither = await confirm({ tableName: uniqueTable() });
    expect([neither.status, neither.body.msg]).toEqual([400, '请选择要上传的文件']);
    // The owner's file is untouched by the refused tries.
    expect((await confirm({ tableName: uniqueTable(), fileToken: token })).status).toBe(200);
  });

  it('forgets a kept file after an hour, and keeps at most three per user', async () => {
    const dataDir = server.ctx.config.dataDir;
    const owner = ownerOf(server.ctx);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push((await structure({ name: `第${i}个.csv`, content: CSV })).body.data.fileToken);
    expect(kept()).toHaveLength(6);
    const userId = (await call(server, 'GET', '/api/auth/info', { headers: admin })).body.data.id as number;
    expect(await findKeptUpload(dataDir, tokens[0]!, userId)).toBeNull();
    const newest = await findKeptUpload(dataDir, tokens[3]!, userId);
    expect(newest?.file.fileName).toBe('第3个.csv');

    // An hour on: the lookup refuses it, and the sweep removes it though its process is alive.
    const old = new Date(Date.now() - KEPT_UPLOAD_MS - 60_000);
    for (const name of kept()) fs.utimesSync(path.join(uploadDir(dataDir), name), old, old);
    expect(await findKeptUpload(dataDir, tokens[3]!, userId)).toBeNull();
    expect(await sweepUploads(dataDir, owner)).toBe(6);
    expect(kept()).toEqual([]);
  });
});
