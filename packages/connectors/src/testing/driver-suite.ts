import net from 'node:net';
import { getDialect } from '@shutu/query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStagingTable, stagingTableName } from '../bulk.ts';
import { ConnectorError } from '../errors.ts';
import { openDriver } from '../factory.ts';
import { collect } from '../stream.ts';
import type { DataSourceConfig, Driver, LoadColumn, LoadRow, Row } from '../types.ts';
import { TYPES_ROW, TYPES_VIEW_DATA_TYPES, type EngineHandle } from './engines.ts';

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<ConnectorError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectorError);
    return error as ConnectorError;
  }
  throw new Error('expected a rejection');
}

/** A port on 127.0.0.1 with nothing listening. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server on 127.0.0.1 that accepts connections and never says a word (a hung host). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const LOAD_COLUMNS: LoadColumn[] = [
  { name: 'id', type: 'INTEGER', comment: '编号' },
  { name: '名称', type: 'STRING', comment: '商品名称（原始表头）' },
  { name: 'price', type: 'NUMBER', comment: '价格' },
  { name: 'created_at', type: 'DATETIME' },
  { name: 'day', type: 'DATE' },
];
export const LOAD_ROWS: LoadRow[] = [
  [1, '中文套餐', '12.5', '2024-03-05 08:30:00', '2024/3/5'],
  [2, 'O\'Brien \\ "引号" 🚀', 0.25, '2024年3月6日', '20240306'],
  [3, '换行\n制表\t结束', null, null, null],
  ['9007199254740993', '', '1,234.75', new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), '2024-01-02'],
];
export const LOADED: Row[] = [
  { id: 1, 名称: '中文套餐', price: 12.5, created_at: '2024-03-05T08:30:00', day: '2024-03-05' },
  { id: 2, 名称: 'O\'Brien \\ "引号" 🚀', price: 0.25, created_at: '2024-03-06T00:00:00', day: '2024-03-06' },
  { id: 3, 名称: '换行\n制表\t结束', price: null, created_at: null, day: null },
  { id: '9007199254740993', 名称: '', price: 1234.75, created_at: '2024-01-02T03:04:05', day: '2024-01-02' },
];

/** What an engine's own tests get: the suite's driver and engine (set up in beforeAll). */
export interface SuiteContext {
  driver(): Driver;
  handle: EngineHandle;
  all(sql: string, params?: readonly (string | number | boolean | null)[]): Promise<Row[]>;
}

/** The driver contract, run against one engine; `extras` adds the engine's own tests. */
export function driverSuite(handle: EngineHandle | null, name: string, extras?: (context: SuiteContext) => void): void {
  describe.skipIf(handle === null)(`${name} driver`, () => {
    const h = handle!;
    let driver: Driver;
    const q = (table: string) => `${getDialect(h.type).quoteIdentifier(h.schema)}.${table}`;
    const all = async (sql: string, params: readonly (string | number | boolean | null)[] = []) => (await collect(driver.query(sql, params))).rows;

    beforeAll(async () => {
      for (const sql of h.typesSetup) await h.admin(sql);
      driver = openDriver(h.config);
    });
    afterAll(async () => {
      await driver?.close();
      await h.cleanup();
    });

    it('tests the connection and reports its dialect and capabilities', async () => {
      const info = await driver.testConnection();
      expect(info.dialect).toBe(h.type);
      expect(info.serverVersion).not.toBe('');
      const dialect = await driver.dialect();
      expect(dialect.name).toBe(info.dialect);
      for (const [key, value] of Object.entries(dialect.capabilities)) expect(info.capabilities[key as keyof typeof info.capabilities]).toBe(value);
    });

    it('lists tables and views with comments', async () => {
      const { capabilities } = await driver.info();
      const tables = (await driver.listTables()).filter((t) => t.schema === h.schema);
      expect(tables).toContainEqual({ schema: h.schema, name: 'types_t', type: 'TABLE', comment: capabilities.tableComments ? '类型表' : '' });
      expect(tables.find((t) => t.name === 'types_v')).toMatchObject({ type: 'VIEW' });
    });

    it('lists columns with comments, database types and view data types', async () => {
      const columns = await driver.listColumns({ schema: h.schema, name: 'types_t' });
      expect(columns.map((c) => c.name)).toEqual(Object.keys(TYPES_VIEW_DATA_TYPES));
      expect(Object.fromEntries(columns.map((c) => [c.name, c.viewDataType]))).toEqual(TYPES_VIEW_DATA_TYPES);
      expect(columns.find((c) => c.name === 'c_text')!.comment).toBe('文本列');
      expect(columns.every((c) => c.databaseType.length > 0)).toBe(true);
      expect((await rejection(driver.listColumns({ schema: h.schema, name: 'no_such_table' }))).kind).toBe('tableNotFound');
    });

    it('normalises values identically on every engine', async () => {
      const { rows, columns } = await collect(driver.query(`SELECT * FROM ${q('types_t')}`));
      expect(rows).toEqual([TYPES_ROW]);
      expect(columns.map((c) => c.viewDataType)).toEqual(Object.values(TYPES_VIEW_DATA_TYPES));
    });

    it('streams many rows in order', async () => {
      let count = 0;
      let last = 0;
      for await (const row of driver.query(h.seriesSql(100_000))) {
        count++;
        expect(row.n).toBeGreaterThan(last);
        last = row.n as number;
      }
      expect(count).toBe(100_000);
    });

    it('cancels the statement when the loop is left early, and keeps working', async () => {
      for (let i = 0; i < 8; i++) {
        let seen = 0;
        for await (const _row of driver.query(h.seriesSql(1_000_000))) if (++seen === 3) break;
        expect(seen).toBe(3);
      }
      expect(await all(h.seriesSql(3))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('cancels through an AbortSignal, mid-stream and while the server is busy', async () => {
      const controller = new AbortController();
      let seen = 0;
      const midStream = (async () => {
        for await (const _row of driver.query(h.seriesSql(1_000_000), [], { signal: controller.signal })) if (++seen === 10) controller.abort();
      })();
      const error = await rejection(midStream);
      expect(error.kind).toBe('cancelled');
      expect(error.message).toBe('查询已取消');

      const busy = new AbortController();
      const started = Date.now();
      setTimeout(() => busy.abort(), 300);
      expect((await rejection(collect(driver.query(h.slowSql, [], { signal: busy.signal })))).kind).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await all(h.seriesSql(2))).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('cuts a slow query off at the statement timeout with a Chinese message', async () => {
      const started = Date.now();
      const error = await rejection(collect(driver.query(h.slowSql, [], { timeoutMs: 1000 })));
      const elapsed = Date.now() - started;
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/^查询超时：执行超过 1 秒已被终止/);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(6000);
      expect(await all(h.seriesSql(1))).toEqual([{ n: 1 }]);
    });

    it('refuses writes through query()', async () => {
      const writes = [
        `INSERT INTO ${q('types_t')} (c_int) VALUES (1)`,
        `DROP TABLE ${q('types_t')}`,
        `CREATE TABLE ${q('evil')} (a INT)`,
        `DELETE FROM ${q('types_t')} WHERE 1 = 1`,
      ];
      for (const sql of writes) {
        const error = await rejection(collect(driver.query(sql)));
        expect(error.kind, sql).toBe('readOnly');
        expect(error.message).toBe('只读查询不能修改数据，仅支持 SELECT 查询');
      }
      // Riding along a SELECT does not help either.
      await rejection(collect(driver.query(`SELECT 1 AS a; DROP TABLE ${q('types_t')}`)));
      expect(await all(`SELECT * FROM ${q('types_t')}`)).toEqual([TYPES_ROW]);
    });

    it('bulk-loads a new table (Chinese text, comments, every type) and reads it back', async () => {
      const result = await driver.bulkLoad('load_t', LOAD_COLUMNS, LOAD_ROWS, { schema: h.schema, comment: '导入测试表', batchSize: 3 });
      expect(result.rows).toBe(4);
      const rows = await all(`SELECT * FROM ${q('load_t')}`);
      const byId = (rs: Row[]) => [...rs].sort((a, b) => String(a.id).localeCompare(String(b.id)));
      expect(byId(rows)).toEqual(byId(LOADED));
      const { capabilities } = await driver.info();
      expect((await driver.listTables()).find((t) => t.schema === h.schema && t.name === 'load_t')?.comment).toBe(
        capabilities.tableComments ? '导入测试表' : '',
      );
      const columns = await driver.listColumns({ schema: h.schema, name: 'load_t' });
      expect(columns.map((c) => [c.name, c.viewDataType, c.comment])).toEqual([
        ['id', 'NUMBER', '编号'],
        ['名称', 'STRING', '商品名称（原始表头）'],
        ['price', 'NUMBER', '价格'],
        ['created_at', 'DATETIME', ''],
        ['day', 'DATETIME', ''],
      ]);
    });

    it('refuses an existing table name and bad values, leaving nothing behind', async () => {
      const exists = await rejection(driver.bulkLoad('types_t', LOAD_COLUMNS, [], { schema: h.schema }));
      expect(exists.kind).toBe('tableExists');
      expect(exists.message).toBe('表【types_t】已存在，请更换表名');
      async function* rows(): AsyncGenerator<LoadRow> {
        for (let i = 1; i <= 5; i++) yield [i, `第${i}行`, i, '2024-01-01', '2024-01-01'];
        yield [6, '坏', '十二', '2024-01-01', '2024-01-01'];
      }
      const bad = await rejection(driver.bulkLoad('bad_t', LOAD_COLUMNS, rows(), { schema: h.schema, batchSize: 2 }));
      expect(bad.message).toBe('第 6 行【price】的值“十二”不是数字');
      expect((await driver.listTables()).some((t) => t.name === 'bad_t')).toBe(false);
      expect(
        (
          await rejection(
            driver.bulkLoad(
              'x"y`z',
              [
                { name: 'a', type: 'STRING' },
                { name: 'A', type: 'STRING' },
              ],
              [],
            ),
          )
        ).message,
      ).toBe('列名【A】重复');
    });

    it('loads under a private staging name, hidden from listings, and renames it into place in one step', async () => {
      const staging = stagingTableName();
      expect(isStagingTable(staging)).toBe(true);
      await driver.bulkLoad(staging, LOAD_COLUMNS, LOAD_ROWS, { schema: h.schema, comment: '暂存' });
      expect(await driver.tableExists(staging, { schema: h.schema })).toBe(true);
      expect((await driver.listTables()).some((t) => isStagingTable(t.name))).toBe(false);
      // A taken target is refused with our message, and the staging table stays.
      const taken = await rejection(driver.renameTable(staging, 'types_t', { schema: h.schema }));
      expect(taken.kind).toBe('tableExists');
      expect(taken.message).toBe('表【types_t】已存在，请更换表名');
      expect(await driver.tableExists(staging, { schema: h.schema })).toBe(true);
      await driver.renameTable(staging, 'renamed_t', { schema: h.schema });
      expect(await driver.tableExists(staging, { schema: h.schema })).toBe(false);
      expect(await driver.tableExists('renamed_t', { schema: h.schema })).toBe(true);
      expect((await all(`SELECT count(*) AS n FROM ${q('renamed_t')}`))[0]!.n).toBe(4);
      expect((await driver.listTables()).some((t) => t.name === 'renamed_t')).toBe(true);
      expect((await rejection(driver.renameTable(staging, 'other_t', { schema: h.schema }))).kind).toBe('tableNotFound');
      // Dropping is idempotent: a second drop of a gone table is fine.
      const leftover = stagingTableName();
      await driver.bulkLoad(leftover, LOAD_COLUMNS, LOAD_ROWS.slice(0, 1), { schema: h.schema });
      await driver.dropTable(leftover, { schema: h.schema });
      await driver.dropTable(leftover, { schema: h.schema });
      expect(await driver.tableExists(leftover, { schema: h.schema })).toBe(false);
    });

    it('reports an unreachable data source in Chinese within 5 s', async () => {
      const configs: DataSourceConfig[] = [];
      const silent = await silentServer();
      try {
        if (h.config.type === 'duckdb') configs.push({ type: 'duckdb', path: '/nonexistent-shutu-dir/x/warehouse.duckdb' });
        else configs.push({ ...h.config, port: await closedPort() }, { ...h.config, port: silent.port });
        for (const config of configs) {
          const dead = openDriver(config);
          const started = Date.now();
          const error = await rejection(dead.testConnection());
          expect(Date.now() - started).toBeLessThan(5000);
          expect(error.kind).toBe('unreachable');
          expect(error.message).toMatch(/^(无法连接数据源|连接数据源 .* 超时|无法打开数据库文件)/);
          await dead.close();
        }
      } finally {
        await silent.close();
      }
    });

    extras?.({ driver: () => driver, handle: h, all });
  });
}
