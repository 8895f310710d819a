import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createClient } from '@clickhouse/client';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DataSourceConfig, DataSourceType } from '../types.ts';
import { startClickHouse } from './clickhouse-server.ts';
import { DUCKDB_LOCKED_DOWN } from '../duckdb.ts';

/**
 * The four test engines. Each test file asks for its engines at collection time: under
 * CI=true an engine that cannot be had is an error (never a skip); locally it is skipped.
 */
export const CI = process.env.CI === 'true' || process.env.CI === '1';

export interface EngineHandle {
  type: DataSourceType;
  /** A config for the driver, pointed at a scratch schema / database. */
  config: DataSourceConfig;
  /** Where the tests' tables go (the config's default schema). */
  schema: string;
  /** Runs DDL/DML outside the driver (views, comments, test data). */
  admin(sql: string): Promise<void>;
  /** Runs for many seconds unless stopped. */
  slowSql: string;
  /** One column `n`: 1 … count. */
  seriesSql(count: number): string;
  /** Statements creating `types_t` (one row of TYPES_ROW, comments '类型表' / '文本列') and the view `types_v`. */
  typesSetup: string[];
  /** Drops the scratch space and stops what the handle started. */
  cleanup(): Promise<void>;
}

/** The row every engine's `types_t` holds, normalised: identical everywhere. */
export const TYPES_ROW = {
  c_int: 42,
  c_big: '9007199254740993',
  c_dec: 1234.5,
  c_float: 0.25,
  c_text: "中文 it's",
  c_date: '2024-03-05',
  c_ts: '2024-03-05T10:20:30',
};
export const TYPES_VIEW_DATA_TYPES = {
  c_int: 'NUMBER',
  c_big: 'NUMBER',
  c_dec: 'NUMBER',
  c_float: 'NUMBER',
  c_text: 'STRING',
  c_date: 'DATETIME',
  c_ts: 'DATETIME',
};
const VALUES = "(42, 9007199254740993, 1234.50, 0.25, '中文 it''s', '2024-03-05', '2024-03-05 10:20:30')";

/** Standard-SQL setup (DuckDB, PostgreSQL). */
const standardTypes = (s: string, types: string) => [
  `CREATE TABLE ${s}.types_t (${types})`,
  `COMMENT ON TABLE ${s}.types_t IS '类型表'`,
  `COMMENT ON COLUMN ${s}.types_t.c_text IS '文本列'`,
  `INSERT INTO ${s}.types_t VALUES ${VALUES}`,
  `CREATE VIEW ${s}.types_v AS SELECT c_int, c_text FROM ${s}.types_t`,
];

const scratchName = () => `shutu_t_${randomBytes(5).toString('hex')}`;

async function duckdb(): Promise<EngineHandle> {
  // A file, so the tests' admin connection shares the driver's instance (DuckDBInstance cache).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shutu-duckdb-'));
  const file = path.join(dir, 'warehouse.duckdb');
  const instance = await DuckDBInstance.fromCache(file, DUCKDB_LOCKED_DOWN);
  return {
    type: 'duckdb',
    config: { type: 'duckdb', path: file },
    schema: 'main',
    admin: async (sql) => {
      const c = await instance.connect();
      try {
        await c.run(sql);
      } finally {
        c.closeSync();
      }
    },
    typesSetup: standardTypes('main', 'c_int INTEGER, c_big BIGINT, c_dec DECIMAL(18,2), c_float DOUBLE, c_text VARCHAR, c_date DATE, c_ts TIMESTAMP'),
    slowSql: 'SELECT sum(a.range * b.range) AS s FROM range(1000000) a, range(1000000) b',
    seriesSql: (count) => `SELECT range + 1 AS n FROM range(${count})`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * DuckDB run in an engine process (duckdb-process/): the file is set up by an instance of this
 * process that is closed again before the driver's engine opens it (one process per file).
 */
export function duckdbInEngineProcess(): EngineHandle {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shutu-duckdb-process-'));
  const file = path.join(dir, 'warehouse.duckdb');
  return {
    type: 'duckdb',
    config: { type: 'duckdb', path: file, engineProcess: true, csvOutput: true },
    schema: 'main',
    admin: async (sql) => {
      const instance = await DuckDBInstance.create(file);
      const c = await instance.connect();
      try {
        await c.run(sql);
      } finally {
        c.closeSync();
        instance.closeSync();
      }
    },
    typesSetup: standardTypes('main', 'c_int INTEGER, c_big BIGINT, c_dec DECIMAL(18,2), c_float DOUBLE, c_text VARCHAR, c_date DATE, c_ts TIMESTAMP'),
    slowSql: 'SELECT sum(a.range * b.range) AS s FROM range(1000000) a, range(1000000) b',
    seriesSql: (count) => `SELECT range + 1 AS n FROM range(${count})`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgres(): Promise<EngineHandle | null> {
  const base = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
  const client = new pg.Client({ ...base, connectionTimeoutMillis: 20_000 });
  try {
    await client.connect();
  } catch (error) {
    if (CI) throw new Error(`PostgreSQL at 127.0.0.1:5432/test is required under CI: ${String(error)}`, { cause: error });
    return null;
  }
  const schema = scratchName();
  await client.query(`CREATE SCHEMA ${schema}`);
  return {
    type: 'postgres',
    // search_path is the user's schema, then public: point the session at the scratch schema.
    config: { type: 'postgres', ...base },
    schema,
    admin: async (sql) => void (await client.query(sql)),
    typesSetup: standardTypes(
      schema,
      'c_int integer, c_big bigint, c_dec numeric(18,2), c_float double precision, c_text varchar(50), c_date date, c_ts timestamp',
    ),
    slowSql: 'SELECT pg_sleep(20) AS s',
    seriesSql: (count) => `SELECT generate_series(1, ${count}) AS n`,
    cleanup: async () => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

async function mariadb(): Promise<EngineHandle | null> {
  const base = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({ ...base, database: 'test', connectTimeout: 20_000, multipleStatements: false });
  } catch (error) {
    if (CI) throw new Error(`MariaDB at 127.0.0.1:3306 (root, database test) is required under CI: ${String(error)}`, { cause: error });
    return null;
  }
  const schema = scratchName();
  await conn.query(`CREATE DATABASE ${schema} CHARACTER SET utf8mb4`);
  return {
    type: 'mysql',
    config: { type: 'mysql', ...base, database: schema },
    schema,
    admin: async (sql) => void (await conn.query(sql)),
    typesSetup: [
      `CREATE TABLE ${schema}.types_t (c_int INT, c_big BIGINT, c_dec DECIMAL(18,2), c_float DOUBLE, c_text VARCHAR(50) COMMENT '文本列', c_date DATE, c_ts DATETIME) COMMENT='类型表'`,
      `INSERT INTO ${schema}.types_t VALUES ${VALUES}`,
      `CREATE VIEW ${schema}.types_v AS SELECT c_int, c_text FROM ${schema}.types_t`,
    ],
    slowSql: 'SELECT SLEEP(20) AS s',
    seriesSql: (count) => `SELECT seq AS n FROM seq_1_to_${count}`,
    cleanup: async () => {
      await conn.query(`DROP DATABASE IF EXISTS ${schema}`);
      await conn.end();
    },
  };
}

async function clickhouse(): Promise<EngineHandle | null> {
  const server = await startClickHouse(CI);
  if (!server) return null;
  const schema = scratchName();
  const url = `http://127.0.0.1:${server.port}`;
  const root = createClient({ url, request_timeout: 60_000 });
  await root.command({ query: `CREATE DATABASE ${schema}` });
  await root.close();
  const admin = createClient({ url, database: schema, request_timeout: 60_000 });
  return {
    type: 'clickhouse',
    config: { type: 'clickhouse', host: '127.0.0.1', port: server.port, user: 'default', password: '', database: schema },
    schema,
    admin: async (sql) => void (await admin.command({ query: sql })),
    typesSetup: [
      `CREATE TABLE ${schema}.types_t (c_int Int32, c_big Int64, c_dec Decimal(18,2), c_float Float64, c_text String COMMENT '文本列', c_date Date, c_ts DateTime) ENGINE = MergeTree() ORDER BY tuple()`,
      `INSERT INTO ${schema}.types_t VALUES ${VALUES.replace("''", "\\'")}`,
      `CREATE VIEW ${schema}.types_v AS SELECT c_int, c_text FROM ${schema}.types_t`,
    ],
    // Counts an endless table: only max_execution_time (or KILL QUERY) ends it.
    slowSql: 'SELECT count() AS s FROM system.numbers',
    seriesSql: (count) => `SELECT number + 1 AS n FROM system.numbers LIMIT ${count}`,
    cleanup: async () => {
      await admin.close();
      await server.stop();
    },
  };
}

/** Sets up one engine; null (skip) only outside CI. */
export async function prepareEngine(type: DataSourceType): Promise<EngineHandle | null> {
  switch (type) {
    case 'duckdb':
      return duckdb();
    case 'postgres':
      return postgres();
    case 'mysql':
      return mariadb();
    case 'clickhouse':
      return clickhouse();
  }
}
