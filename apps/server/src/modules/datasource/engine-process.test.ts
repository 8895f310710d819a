import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { encodeSqlBase64 } from '@shutu/contracts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/**
 * The built-in warehouse in its DuckDB engine process (SHUTU_DUCKDB_PROCESS, what the bundle
 * runs): reads, the SQL guard's parse and a file table's load answer as inside the server, and the
 * database file is held by the engine, not by the server's own process.
 */
let server: TestServer;
let admin: Record<string, string>;
let warehouseId: number;
let file: string;

/** Whether a process holds the file open (its descriptors in /proc). */
function holds(pid: number | 'self', file: string): boolean {
  const dir = `/proc/${pid}/fd`;
  return fs.readdirSync(dir).some((fd) => {
    try {
      return fs.readlinkSync(`${dir}/${fd}`) === file;
    } catch {
      return false; // closed meanwhile
    }
  });
}

function enginePids(): number[] {
  return spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes('duckdb-host'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** The engine process holding this server's warehouse file (other suites of this worker may have engines of their own). */
const engineOfWarehouse = () => enginePids().find((pid) => holds(pid, file));

beforeAll(async () => {
  server = await createTestServer('pglite', {}, { warehouse: true, duckdbEngineProcess: true });
  admin = await server.login();
  warehouseId = (await call(server, 'GET', '/api/datasource', { headers: admin })).body.data.records[0].id;
});
afterAll(() => server?.close());

const preview = (sql: string) =>
  call(server, 'POST', '/api/sqlview/preview', { headers: admin, payload: { datasourceId: warehouseId, sqlStatement: encodeSqlBase64(sql) } });

it('answers reads from the engine process, which alone holds the warehouse file', async () => {
  const res = await preview('SELECT count(*) AS n FROM orders WHERE amount > 0');
  expect(res.status, res.raw.body).toBe(200);
  expect(res.body.data.rows[0].n).toBeGreaterThan(0);
  file = (await call(server, 'GET', `/api/datasource/${warehouseId}`, { headers: admin })).body.data.path as string;
  expect(engineOfWarehouse()).toBeDefined();
  expect(holds('self', file)).toBe(false);
});

it('keeps the SQL guard and the engine’s messages: two statements and writes are refused in Chinese', async () => {
  const two = await preview('SELECT 1; SELECT 2');
  expect(two.status).toBe(400);
  expect(two.body.msg).toMatch(/一次只能执行一条|只能.*一条/);
  const write = await preview('DELETE FROM orders');
  expect(write.status).toBe(400);
  const missing = await preview('SELECT * FROM no_such_table');
  expect(missing.status).toBe(400);
  expect(missing.body.msg).toContain('no_such_table');
});

it('starts a new engine when its engine died, and the next read answers', async () => {
  const engine = engineOfWarehouse();
  process.kill(engine!, 'SIGKILL');
  await vi.waitFor(() => expect(enginePids()).not.toContain(engine), { timeout: 10_000 });
  const res = await preview('SELECT 42 AS answer');
  expect(res.status, res.raw.body).toBe(200);
  expect(res.body.data.rows).toEqual([{ answer: 42 }]);
  const again = engineOfWarehouse();
  expect(again).toBeDefined();
  expect(again).not.toBe(engine);
});
