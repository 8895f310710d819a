import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collect, ConnectorError, connectorMessages, isStagingTable, stagingTableName, type LoadRow } from '@shutu/connectors';
import type { FileColumn } from '@shutu/contracts';
import { buildApp } from '../../app.ts';
import type { App, AppContext } from '../../context.ts';
import { FIRST_ADMIN } from '../../platform/db/seed.ts';
import { md5Hex } from '../../platform/auth/password.ts';
import { hostTag, ownerOf } from '../../platform/files/owner.ts';
import { sweepUploads, uploadDir } from '../../platform/files/upload.ts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { builtinSourceId, call } from '../../../test/fixtures.ts';
import { multipart } from '../../../test/multipart.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { recoverFileTables } from './recovery.ts';
import { markFileTablePublishing, pendingLoads, reserveFileTable } from './repo.ts';

/**
 * Issue 14: a server killed mid-upload left half a table under the file table's name, its name
 * taken and its temp file on disk. Here a load hangs half-way (its row iterator never ends) and
 * the process "dies": a fresh app on the same store and data directory starts, runs the start-up
 * recovery, and must find the name free, nothing listed, nothing left on disk.
 */

const kinds = await storeKinds();

const COLUMNS: FileColumn[] = [
  { comment: '编号', columnName: 'id', columnType: 'NUMBER' },
  { comment: '名称', columnName: 'name', columnType: 'STRING' },
];
const csv = (rows: number) => `编号,名称\n${Array.from({ length: rows }, (_, i) => `${i + 1},名称${i + 1}`).join('\n')}\n`;
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/** A pid no process has: one that just exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

let seq = 0;
const uniqueTable = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++seq}`;

describe.each(kinds)('file-table loads across a crash on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let warehouseId: number;

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    warehouseId = await builtinSourceId(server, admin);
  });
  afterAll(() => server?.close());

  const upload = async (app: App, headers: Record<string, string>, tableName: string, rows: number) => {
    const body = multipart(
      { tableName, tableComment: '崩溃测试', dsId: warehouseId, tableColumnList: JSON.stringify(COLUMNS) },
      { name: '大文件.csv', content: csv(rows) },
    );
    const raw = await app.inject({ method: 'POST', url: '/api/filetable/tables', headers: { ...headers, ...body.headers }, payload: body.payload });
    return { status: raw.statusCode, body: raw.json(), raw };
  };
  const loginTo = async (app: App) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { account: FIRST_ADMIN.account, password: md5Hex(FIRST_ADMIN.password) } });
    return { authorization: `Bearer ${res.json<{ data: { token: string } }>().data.token}` };
  };
  const sourceTables = async (app: App, headers: Record<string, string>) => {
    const raw = await app.inject({ method: 'GET', url: `/api/datasource/${warehouseId}/tables`, headers });
    expect(raw.statusCode, raw.body).toBe(200);
    return raw.json<{ data: { name: string }[] }>().data.map((t) => t.name);
  };
  const uploadsLeft = () => {
    const dir = uploadDir(server.ctx.config.dataDir);
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  it('a load killed half-way leaves nothing once the next start recovers: the name is free, no table is listed, no file is left', async () => {
    const tableName = uniqueTable('probe_crash');
    const driver = await getDataSourceDriver(server.ctx, warehouseId);
    // The first process's load stops after 5 000 rows and never goes on (until the test lets it fail).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = driver.bulkLoad.bind(driver);
    // The engine's own load of the file (DuckDB) refuses it, so the rows go through bulkLoad.
    const refuse = vi
      .spyOn(driver as Required<typeof driver>, 'bulkLoadCsvFile')
      .mockRejectedValue(new ConnectorError('invalid', connectorMessages.csvRefused));
    const spy = vi.spyOn(driver, 'bulkLoad').mockImplementation((table, columns, rows, options) =>
      original(
        table,
        columns,
        (async function* (): AsyncGenerator<LoadRow> {
          let n = 0;
          for await (const row of rows as AsyncIterable<LoadRow>) {
            if (++n > 5000) {
              await gate;
              throw new Error('the process was killed');
            }
            yield row;
          }
        })(),
        options,
      ),
    );
    const dying = upload(server.app, admin, tableName, 20_000);

    // Mid-load: the reservation names a staging table that exists, the temp file is on disk.
    const load = await vi.waitFor(
      async () => {
        const [pending] = await pendingLoads(server.ctx.db, { datasourceId: warehouseId, tableName });
        expect(pending?.stagingName).toBeTruthy();
        expect(await driver.tableExists(pending!.stagingName!)).toBe(true);
        return pending!;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(isStagingTable(load.stagingName!)).toBe(true);
    expect(load.status).toBe('loading');
    expect(uploadsLeft()).toHaveLength(1);
    expect(await sourceTables(server.app, admin)).not.toContain(tableName);
    expect((await sourceTables(server.app, admin)).filter(isStagingTable)).toEqual([]);

    // The process is gone. A fresh app on the same store and data directory starts and recovers.
    const ctx: AppContext = { config: server.ctx.config, store: server.store, db: server.store.db };
    expect(ownerOf(ctx).key).not.toBe(ownerOf(server.ctx).key);
    await recoverFileTables(ctx, quiet);
    const app = await buildApp(ctx);
    await app.ready();
    try {
      const headers = await loginTo(app);
      expect(await pendingLoads(ctx.db)).toEqual([]);
      const fresh = await getDataSourceDriver(ctx, warehouseId);
      expect(await fresh.tableExists(load.stagingName!)).toBe(false);
      expect(await fresh.tableExists(tableName)).toBe(false);
      const listed = await sourceTables(app, headers);
      expect(listed).not.toContain(tableName);
      expect(listed.filter(isStagingTable)).toEqual([]);
      expect(uploadsLeft()).toEqual([]);

      // The name is free: the same upload succeeds, every row loaded.
      const again = await upload(app, headers, tableName, 20_000);
      expect(again.status, again.raw.body).toBe(200);
      expect(again.body.data).toMatchObject({ tableName, rowCount: 20_000 });
      expect(await sourceTables(app, headers)).toContain(tableName);
      expect(uploadsLeft()).toEqual([]);

      // The dead process's load failing late touches nothing of the new table.
      release();
      expect((await dying).status).not.toBe(200);
      spy.mockRestore();
      refuse.mockRestore();
      expect((await collect(fresh.query(`SELECT count(*) AS n FROM "${tableName}"`))).rows).toEqual([{ n: 20_000 }]);
      const [listedTable] = (await call(server, 'GET', '/api/filetable/tables', { headers: admin, query: { dsId: warehouseId } })).body.data.filter(
        (t: { tableName: string }) => t.tableName === tableName,
      );
      expect(listedTable).toMatchObject({ tableName, rowCount: 20_000 });
    } finally {
      release();
      spy.mockRestore();
      refuse.mockRestore();
      await app.close();
    }
  });

  it('a crash between the rename and the ready mark: the next start finishes the publish, never half of it', async () => {
    const driver = await getDataSourceDriver(server.ctx, warehouseId);
    // A dead owner on this host: this pid under another instance (a process before a restart).
    const dead = `${hostTag()}-${process.pid}-deadbeef`;
    const reserve = async (tableName: string, stagingName: string) =>
      reserveFileTable(server.ctx.db, {
        datasourceId: warehouseId,
        tableName,
        tableComment: '发布中',
        fileName: 'x.csv',
        columns: COLUMNS,
        createUserId: null,
        stagingName,
        ownerInstance: dead,
      });
    const columns = COLUMNS.map((c) => ({ name: c.columnName, type: c.columnType }));
    const rows: LoadRow[] = [
      [1, '甲'],
      [2, '乙'],
    ];

    // Killed before the rename: the staging table holds every row.
    const before = { table: uniqueTable('pub_before'), staging: stagingTableName() };
    await driver.bulkLoad(before.staging, columns, rows);
    const beforeId = await reserve(before.table, before.staging);
    expect(await markFileTablePublishing(server.ctx.db, beforeId, dead, 2)).toBe(true);
    // Killed after the rename, before the ready mark.
    const after = { table: uniqueTable('pub_after'), staging: stagingTableName() };
    await driver.bulkLoad(after.staging, columns, rows);
    const afterId = await reserve(after.table, after.staging);
    expect(await markFileTablePublishing(server.ctx.db, afterId, dead, 2)).toBe(true);
    await driver.renameTable(after.staging, after.table);
    // Killed mid-load.
    const loading = { table: uniqueTable('pub_loading'), staging: stagingTableName() };
    await driver.bulkLoad(loading.staging, columns, rows.slice(0, 1));
    await reserve(loading.table, loading.staging);

    await recoverFileTables(server.ctx, quiet);
    expect(await pendingLoads(server.ctx.db)).toEqual([]);
    for (const done of [before, after]) {
      expect(await driver.tableExists(done.staging)).toBe(false);
      expect(await driver.tableExists(done.table)).toBe(true);
    }
    expect(await driver.tableExists(loading.staging)).toBe(false);
    expect(await driver.tableExists(loading.table)).toBe(false);
    const listed = (await call(server, 'GET', '/api/filetable/tables', { headers: admin, query: { dsId: warehouseId } })).body.data as {
      tableName: string;
      rowCount: number;
    }[];
    expect(listed.filter((t) => [before.table, after.table, loading.table].includes(t.tableName)).map((t) => [t.tableName, t.rowCount])).toEqual(
      expect.arrayContaining([
        [before.table, 2],
        [after.table, 2],
      ]),
    );
    expect(listed.map((t) => t.tableName)).not.toContain(loading.table);
  });

  it('leaves a live process’s load alone on a shared store; takes over one whose heartbeat stopped', async () => {
    const driver = await getDataSourceDriver(server.ctx, warehouseId);
    const other = `${hostTag('another-host')}-${process.pid}-0badf00d`;
    const tableName = uniqueTable('shared');
    const staging = stagingTableName();
    await driver.bulkLoad(staging, [{ name: 'id', type: 'NUMBER' }], [[1]]);
    const id = await reserveFileTable(server.ctx.db, {
      datasourceId: warehouseId,
      tableName,
      tableComment: '别的进程',
      fileName: 'x.csv',
      columns: COLUMNS.slice(0, 1),
      createUserId: null,
      stagingName: staging,
      ownerInstance: other,
    });
    await recoverFileTables(server.ctx, quiet);
    if (kind === 'postgres') {
      // Another host, heart-beating: its load goes on, its name stays reserved.
      expect((await pendingLoads(server.ctx.db)).map((l) => l.id)).toEqual([id]);
      expect(await driver.tableExists(staging)).toBe(true);
      expect((await upload(server.app, admin, tableName, 10)).status).toBe(409);
      await sql`update file_table set heartbeat_time = now() - interval '1 minute' where id = ${id}`.execute(server.ctx.db);
      await recoverFileTables(server.ctx, quiet);
    }
    // Stale (or, on the embedded store that one process alone opens, any other owner's): settled.
    expect(await pendingLoads(server.ctx.db)).toEqual([]);
    expect(await driver.tableExists(staging)).toBe(false);
    expect((await upload(server.app, admin, tableName, 10)).status).toBe(200);
  });
});

describe('upload temp files at start-up', () => {
  it('removes files whose process is gone, keeps a live process’s, and takes every other owner’s when the directory is this process’s alone', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-sweep-'));
    const self = ownerOf({});
    try {
      const dir = uploadDir(dataDir);
      fs.mkdirSync(dir, { recursive: true });
      const write = (name: string, ageMs = 0) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, 'x');
        if (ageMs) fs.utimesSync(file, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
      };
      write(`${self.key}-abc-0123456789ab.csv`); // this process's, in flight
      write(`${hostTag()}-${process.pid}-00000000-abc-0123456789ab.csv`); // this pid, another (earlier) instance
      write(`${hostTag()}-${deadPid()}-11111111-abc-0123456789ab.csv`); // this host, process gone
      write(`${hostTag('another-host')}-1-22222222-abc-0123456789ab.csv`); // another host, recent
      write(`${hostTag('another-host')}-1-33333333-abc-0123456789ab.csv`, 25 * 3_600_000); // another host, a day old
      write('lp0x1k-0123456789abcdef.xlsx'); // unnamed (before owners), recent

      expect(await sweepUploads(dataDir, self)).toBe(3);
      expect(fs.readdirSync(dir).sort()).toEqual(
        [`${self.key}-abc-0123456789ab.csv`, `${hostTag('another-host')}-1-22222222-abc-0123456789ab.csv`, 'lp0x1k-0123456789abcdef.xlsx'].sort(),
      );
      expect(await sweepUploads(dataDir, self, { exclusive: true })).toBe(2);
      expect(fs.readdirSync(dir)).toEqual([`${self.key}-abc-0123456789ab.csv`]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
