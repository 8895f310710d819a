import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDriver } from '@shutu/connectors';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { decryptSecret, resolveSecretKey } from '../../platform/crypto.ts';
import { findDataSource, getDataSource, getDataSourceDriver } from './registry.ts';
import { ensureBuiltinWarehouse } from './warehouse.ts';

const kinds = await storeKinds();

/** Whether something listens on 127.0.0.1:port (MariaDB must, on CI). */
async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}
const mariadb = await listening(3306);
if (!mariadb && process.env.CI === 'true') throw new Error('MariaDB at 127.0.0.1:3306 is required on CI');

/** A port nothing listens on, and a server that accepts connections and never answers. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => void sockets.add(s)).listen(0, '127.0.0.1');
  return new Promise((resolve) =>
    server.once('listening', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
      }),
    ),
  );
}

const PG = { type: 'postgres', host: '127.0.0.1', port: 5432, database: 'test', username: 'postgres' };
const MARIADB = { type: 'mysql', host: '127.0.0.1', port: 3306, database: 'test', username: 'root' };
let seq = 0;
const uniqueName = (prefix: string) => `${prefix}${++seq}`;

describe.each(kinds)('data sources on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let builtinId: number;

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    builtinId = (await call(server, 'GET', '/api/datasource', { headers: admin })).body.data.records[0].id;
  });
  afterAll(() => server?.close());

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, query?: Record<string, string | number>) =>
    call(server, method, url, { headers: admin, ...(payload === undefined ? {} : { payload }), ...(query ? { query } : {}) });
  const create = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/datasource', { dsDb: uniqueName('源'), ...body });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data as { id: number; dsDb: string; hasPassword: boolean };
  };
  /** The stored row as the database has it, past the ORM. */
  const rawRow = async (id: number) =>
    (await server.store.executeSql('select * from data_source where id = $1', [id])).rows[0] as { password_encrypted: string | null };

  it('registers the built-in warehouse once, first in the list, as a DuckDB file in the data directory', async () => {
    const list = await api('GET', '/api/datasource');
    const builtin = list.body.data.records[0];
    expect(builtin).toMatchObject({ dsDb: '示例数据仓库', type: 'duckdb', dsTypeSyl: 'DuckDB', isBuiltin: true, hasPassword: false, host: null });
    expect(builtin.path).toBe(path.join(server.ctx.config.dataDir, 'warehouse.duckdb'));
    expect(fs.existsSync(builtin.path)).toBe(true);
    // A restart (the row exists) registers nothing new. (Before any driver opens the file, as at start-up.)
    expect(await ensureBuiltinWarehouse(server.ctx)).toMatchObject({ id: builtin.id, registered: false, demo: 'kept' });
    expect(Number((await sql<{ n: string }>`select count(*) as n from data_source where is_builtin`.execute(server.ctx.db)).rows[0]!.n)).toBe(1);
  });

  it('creates, reads, searches, edits and deletes a source; the password never comes back', async () => {
    const name = uniqueName('销售库');
    const res = await api('POST', '/api/datasource', { ...PG, dsDb: name, password: 'S3cret-密码', remark: ' 销售明细 ' });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.msg).toBe('保存成功');
    const created = res.body.data;
    expect(created).toMatchObject({
      dsDb: name,
      type: 'postgres',
      dsTypeSyl: 'PostgreSQL',
      host: '127.0.0.1',
      port: 5432,
      hasPassword: true,
      remark: '销售明细',
      isBuiltin: false,
      path: null,
    });
    expect(res.raw.body).not.toContain('S3cret');
    expect(created).not.toHaveProperty('password');

    const one = await api('GET', `/api/datasource/${created.id}`);
    expect(one.body.data).toEqual(created);
    expect(one.raw.body).not.toContain('S3cret');
    const found = await api('GET', '/api/datasource', undefined, { keyword: '销售明细' });
    expect(found.body.data.records.map((r: { id: number }) => r.id)).toEqual([created.id]);
    expect((await api('GET', '/api/datasource', undefined, { keyword: '%' })).body.data.total).toBe(0);

    // An empty password keeps the stored one; a new one replaces it.
    const before = (await rawRow(created.id)).password_encrypted;
    const edited = await api('PUT', `/api/datasource/${created.id}`, { ...PG, dsDb: `${name}改`, password: '' });
    expect(edited.body.data).toMatchObject({ dsDb: `${name}改`, hasPassword: true, remark: null });
    expect((await rawRow(created.id)).password_encrypted).toBe(before);
    await api('PUT', `/api/datasource/${created.id}`, { ...PG, dsDb: `${name}改`, password: 'another' });
    expect((await rawRow(created.id)).password_encrypted).not.toBe(before);

    const removed = await api('DELETE', `/api/datasource/${created.id}`);
    expect(removed.body).toMatchObject({ code: 200, msg: '删除成功!' });
    expect((await api('GET', `/api/datasource/${created.id}`)).body).toMatchObject({ code: 404, msg: '数据源不存在' });
    expect((await api('DELETE', `/api/datasource/${created.id}`)).status).toBe(404);
    expect((await api('PUT', `/api/datasource/${created.id}`, { ...PG, dsDb: 'x' })).status).toBe(404);
  });

  it('keeps passwords encrypted at rest with the key outside the store', async () => {
    const source = await create({ ...MARIADB, password: 'clear-text-password' });
    const row = await rawRow(source.id);
    expect(row.password_encrypted).toMatch(/^v1:/);
    const everything = JSON.stringify((await server.store.executeSql('select * from data_source')).rows);
    expect(everything).toContain('v1:');
    expect(everything).not.toContain('clear-text-password');
    const keyFile = path.join(server.ctx.config.dataDir, 'keys', 'secret.key');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(decryptSecret(resolveSecretKey(server.ctx.config), row.password_encrypted!, 'shutu:data_source.password')).toBe('clear-text-password');
  });

  it('checks the fields each engine needs, with Chinese messages', async () => {
    const bad = async (body: Record<string, unknown>, field: string, message: string) => {
      const res = await api('POST', '/api/datasource', { dsDb: uniqueName('坏'), ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.data.fields, JSON.stringify(body)).toContainEqual({ field, message });
    };
    await bad({ ...PG, dsDb: '' }, 'dsDb', '请输入数据源名称');
    await bad({ ...PG, type: 'oracle' }, 'type', '请选择数据源类型');
    await bad({ ...PG, host: ' ' }, 'host', '请输入主机地址');
    await bad({ ...PG, port: 70000 }, 'port', '请输入正确的端口（1-65535）');
    await bad({ ...PG, port: null }, 'port', '请输入正确的端口（1-65535）');
    await bad({ ...MARIADB, database: null }, 'database', '请输入数据库名称');
    await bad({ ...MARIADB, username: '' }, 'username', '请输入用户名');
    await bad({ type: 'duckdb' }, 'path', '请输入数据库文件路径');
    await bad({ type: 'duckdb', path: '/etc/passwd' }, 'path', '数据库文件须为数据目录内的 .duckdb 文件');
    await bad({ type: 'duckdb', path: '../outside.duckdb' }, 'path', '数据库文件须为数据目录内的 .duckdb 文件');
    await bad({ type: 'duckdb', path: 'keys/secret.key' }, 'path', '数据库文件须为数据目录内的 .duckdb 文件');
    await bad({ type: 'duckdb', path: 'missing.duckdb' }, 'path', '数据库文件不存在');
    expect(fs.existsSync(path.join(server.ctx.config.dataDir, 'missing.duckdb'))).toBe(false);
    // ClickHouse defaults database and user to `default`.
    await create({ type: 'clickhouse', host: '127.0.0.1', port: 8123 });
  });

  it('refuses a duplicate name, case-insensitively, with 409', async () => {
    const first = await create({ ...PG, dsDb: uniqueName('Dup') });
    const again = await api('POST', '/api/datasource', { ...PG, dsDb: first.dsDb.toLowerCase() });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('数据源名称已存在');
    expect((await api('PUT', `/api/datasource/${builtinId}`, { type: 'duckdb', path: 'warehouse.duckdb', dsDb: first.dsDb })).status).toBe(409);
  });

  it('registers another DuckDB file of the data directory by a relative path', async () => {
    const file = path.join(server.ctx.config.dataDir, 'extra.duckdb');
    const driver = openDriver({ type: 'duckdb', path: file });
    await driver.testConnection();
    await driver.close();
    const source = await create({ type: 'duckdb', path: 'extra.duckdb', host: 'ignored' });
    expect(source).toMatchObject({ path: file, host: null, dsTypeSyl: 'DuckDB' });
  });

  it('refuses to delete the built-in warehouse (409) and lets only its name and remark change', async () => {
    const res = await api('DELETE', `/api/datasource/${builtinId}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('内置数据仓库不能删除');
    const before = (await api('GET', `/api/datasource/${builtinId}`)).body.data;
    const edited = await api('PUT', `/api/datasource/${builtinId}`, { ...PG, dsDb: '演示仓库', remark: '改过的备注' });
    expect(edited.body.data).toMatchObject({ dsDb: '演示仓库', remark: '改过的备注', type: 'duckdb', path: before.path, host: null });
    await api('PUT', `/api/datasource/${builtinId}`, { type: 'duckdb', path: before.path, dsDb: before.dsDb, remark: before.remark });
  });

  it('tests the built-in warehouse and lists its tables and columns with comments', async () => {
    const tested = await api('POST', `/api/datasource/${builtinId}/test`);
    expect(tested.body).toMatchObject({ code: 200, msg: '连接成功', data: { dialect: 'duckdb' } });
    expect(tested.body.data.serverVersion).toMatch(/^v?\d+\.\d+/);

    const driver = await getDataSourceDriver(server.ctx, builtinId);
    expect(await getDataSourceDriver(server.ctx, builtinId)).toBe(driver);
    await driver.bulkLoad(
      'ds_test_orders',
      [
        { name: 'order_id', type: 'INTEGER', comment: '订单编号' },
        { name: 'province', type: 'STRING', comment: '省份' },
        { name: 'order_time', type: 'DATETIME' },
      ],
      [[1, '广东', '2026-01-02 03:04:05']],
      { comment: '测试订单' },
    );
    const tables = await api('GET', `/api/datasource/${builtinId}/tables`);
    expect(tables.status, tables.raw.body).toBe(200);
    expect(tables.body.data).toContainEqual({ schema: 'main', name: 'ds_test_orders', comment: '测试订单', kind: 'TABLE' });
    // The demo data generated at start.
    expect(tables.body.data).toContainEqual({ schema: 'main', name: 'orders', comment: '产品订购记录', kind: 'TABLE' });
    expect(tables.body.data).toContainEqual(expect.objectContaining({ name: 'v_order_data', kind: 'VIEW' }));
    const orderColumns = await api('GET', `/api/datasource/${builtinId}/columns`, undefined, { tableName: 'orders' });
    expect(orderColumns.body.data[0]).toEqual({ name: 'order_id', comment: '订单编号', dbType: 'BIGINT', viewDataType: 'NUMBER' });

    const columns = await api('GET', `/api/datasource/${builtinId}/columns`, undefined, { tableName: 'ds_test_orders' });
    expect(columns.body.data).toEqual([
      { name: 'order_id', comment: '订单编号', dbType: 'BIGINT', viewDataType: 'NUMBER' },
      { name: 'province', comment: '省份', dbType: 'VARCHAR', viewDataType: 'STRING' },
      { name: 'order_time', comment: '', dbType: 'TIMESTAMP', viewDataType: 'DATETIME' },
    ]);
    expect((await api('GET', `/api/datasource/${builtinId}/columns`, undefined, { tableName: 'ds_test_orders', schema: 'main' })).body.data).toHaveLength(3);
    const missing = await api('GET', `/api/datasource/${builtinId}/columns`, undefined, { tableName: 'no_such_table' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('表【no_such_table】不存在');
    expect((await api('GET', `/api/datasource/${builtinId}/columns`)).body.msg).toBe('请选择数据表');
    expect((await api('GET', '/api/datasource/999999/tables')).body).toMatchObject({ code: 404, msg: '数据源不存在' });
  });

  it('tests the local PostgreSQL, saved and unsaved, and lists its tables', async () => {
    const form = await api('POST', '/api/datasource/test', PG);
    expect(form.body, form.raw.body).toMatchObject({ code: 200, msg: '连接成功', data: { dialect: 'postgres' } });
    expect(form.body.data.serverVersion).toMatch(/^\d+/);
    const source = await create(PG);
    const saved = await api('POST', `/api/datasource/${source.id}/test`);
    expect(saved.body.data.dialect).toBe('postgres');
    const tables = await api('GET', `/api/datasource/${source.id}/tables`);
    expect(tables.status, tables.raw.body).toBe(200);
    expect(Array.isArray(tables.body.data)).toBe(true);
  });

  it.skipIf(!mariadb)('tests the local MariaDB; a wrong password is a clear error, and an edit test reuses the stored password', async () => {
    const form = await api('POST', '/api/datasource/test', MARIADB);
    expect(form.body, form.raw.body).toMatchObject({ code: 200, data: { dialect: 'mysql' } });
    expect(form.body.data.serverVersion).toMatch(/MariaDB/);

    const wrong = await create({ ...MARIADB, password: 'wrong-password' });
    const saved = await api('POST', `/api/datasource/${wrong.id}/test`);
    expect(saved.status).toBe(502);
    expect(saved.body).toMatchObject({ success: false, msg: '数据源认证失败，请检查用户名和密码', data: { kind: 'auth' } });
    // The edit form leaves the password empty: the stored (wrong) one is tried.
    const edit = await api('POST', '/api/datasource/test', { ...MARIADB, id: wrong.id, password: '' });
    expect(edit.body.msg).toBe('数据源认证失败，请检查用户名和密码');
    // Another engine in the form: the stored password is not offered to it.
    const other = await api('POST', '/api/datasource/test', { ...PG, id: wrong.id });
    expect(other.body.code).toBe(200);
  });

  it('reports an unreachable source within 5 s while the server keeps answering', async () => {
    const refused = await api('POST', '/api/datasource/test', { ...PG, port: await closedPort() });
    expect(refused.status).toBe(502);
    expect(refused.body.msg).toMatch(/^无法连接数据源 127\.0\.0\.1:\d+（连接被拒绝），请检查主机地址、端口和网络$/);

    const silent = await silentServer();
    try {
      const source = await create({ ...PG, port: silent.port });
      const started = Date.now();
      const pending = api('POST', `/api/datasource/${source.id}/test`);
      const health: number[] = [];
      let done = false;
      void pending.then(() => (done = true));
      while (!done) {
        const t0 = Date.now();
        expect((await call(server, 'GET', '/api/health')).status).toBe(200);
        health.push(Date.now() - t0);
        await new Promise((r) => setTimeout(r, 250));
      }
      const res = await pending;
      const elapsed = Date.now() - started;
      expect(res.status).toBe(502);
      expect(res.body.msg).toMatch(/^连接数据源 127\.0\.0\.1:\d+ 超时（[\d.]+ 秒内无响应），请检查主机地址、端口和网络$/);
      expect(elapsed).toBeLessThan(5500);
      expect(health.length).toBeGreaterThan(3);
      expect(Math.max(...health)).toBeLessThan(1000);
    } finally {
      await silent.close();
    }
  });

  it('gives other modules one cached driver per source, reopened after an edit and gone after a delete', async () => {
    const source = await create(PG);
    expect(await findDataSource(server.ctx, source.id)).toMatchObject({ id: source.id, type: 'postgres' });
    const first = await getDataSourceDriver(server.ctx, source.id);
    expect(await getDataSourceDriver(server.ctx, source.id)).toBe(first);
    // A rename keeps the connection settings; the driver survives only until the source is saved.
    await api('PUT', `/api/datasource/${source.id}`, { ...PG, dsDb: uniqueName('改名') });
    const second = await getDataSourceDriver(server.ctx, source.id);
    expect(second).not.toBe(first);
    await expect(first.listTables()).rejects.toThrow('数据源连接已关闭');
    expect((await second.testConnection()).dialect).toBe('postgres');

    await api('DELETE', `/api/datasource/${source.id}`);
    await expect(second.listTables()).rejects.toThrow('数据源连接已关闭');
    expect(await findDataSource(server.ctx, source.id)).toBeUndefined();
    await expect(getDataSource(server.ctx, source.id)).rejects.toMatchObject({ status: 404, message: '数据源不存在' });
    await expect(getDataSourceDriver(server.ctx, source.id)).rejects.toMatchObject({ status: 404, message: '数据源不存在' });
  });
});
