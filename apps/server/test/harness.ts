import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../src/app.ts';
import type { App, AppContext } from '../src/context.ts';
import { loadConfig, type Config } from '../src/platform/config.ts';
import { migrateToLatest, openStore, type MetadataStore } from '../src/platform/db/store.ts';
import { FIRST_ADMIN, seed } from '../src/platform/db/seed.ts';
import { md5Hex } from '../src/platform/auth/password.ts';
import { ensureBuiltinWarehouse } from '../src/modules/datasource/warehouse.ts';
import { moduleJobs } from '../src/modules/jobs.ts';
import { Jobs } from '../src/platform/jobs/boss.ts';
import pino, { type Logger } from 'pino';

export type StoreKind = 'pglite' | 'postgres';

/** The local PostgreSQL the integration suites also run against. */
export const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Which stores to run a suite on. PGlite always; PostgreSQL when reachable, and on CI
 * it must be reachable: a missing server fails the run instead of skipping it.
 */
export async function storeKinds(): Promise<StoreKind[]> {
  if (process.env.SKIP_PG === '1' && process.env.CI !== 'true') return ['pglite'];
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 20_000 });
  try {
    await client.connect();
    await client.end();
    return ['pglite', 'postgres'];
  } catch (error) {
    if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${PG_URL} is required on CI: ${String(error)}`, { cause: error });
    return ['pglite'];
  }
}

/** A fresh database on the local server, dropped by the returned cleanup. */
async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shutu_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A store that can be closed and opened again on the same data, as a restarted server
 * would: a PGlite data directory under a temp dir, or a scratch database on the local
 * PostgreSQL. Each `open()` returns a new store; `cleanup()` deletes the data.
 */
export interface ReopenableTestStore {
  kind: StoreKind;
  open(): Promise<MetadataStore>;
  cleanup(): Promise<void>;
}

let migratedPglite: Promise<Blob> | undefined;

/**
 * An empty, migrated PGlite cluster, made once per worker: a test store restored from it opens
 * in well under a second, where creating a cluster (initdb) takes several. Stores opened from
 * it still run the migrations (none left) and the seed, as a server does.
 */
export function migratedPgliteTemplate(): Promise<Blob> {
  migratedPglite ??= (async () => {
    const store = await openStore({});
    try {
      await migrateToLatest(store.db);
      return await store.snapshot!();
    } finally {
      await store.close();
    }
  })();
  return migratedPglite;
}

export async function reopenableTestStore(kind: StoreKind): Promise<ReopenableTestStore> {
  if (kind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-pglite-'));
    const pgliteDir = path.join(dir, 'metadata');
    const template = await migratedPgliteTemplate();
    return {
      kind,
      // The template only fills a new directory; a reopened one keeps its data.
      open: () => openStore({ pgliteDir, pgliteTemplate: fs.existsSync(pgliteDir) ? undefined : template }),
      async cleanup() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const scratch = await createScratchDatabase();
  return { kind, open: () => openStore({ databaseUrl: scratch.url }), cleanup: () => scratch.drop() };
}

export interface TestServer {
  app: App;
  ctx: AppContext;
  store: MetadataStore;
  /** Logs in and returns headers carrying the bearer token. */
  login(account?: string, password?: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function openTestStore(kind: StoreKind): Promise<{ store: MetadataStore; cleanup(): Promise<void> }> {
  if (kind === 'pglite') {
    const store = await openStore({ pgliteTemplate: await migratedPgliteTemplate() });
    return { store, cleanup: () => store.close() };
  }
  const scratch = await createScratchDatabase();
  const store = await openStore({ databaseUrl: scratch.url });
  return {
    store,
    async cleanup() {
      await store.close();
      await scratch.drop();
    },
  };
}

export interface TestServerOptions {
  /** Create and register the built-in DuckDB warehouse, as `startServer` does. */
  warehouse?: boolean;
  /** Start every module's jobs on pg-boss (working in this process, polling every half second). */
  jobs?: boolean;
  /** Where the server's Chromium reaches the web pages (render tests listen on a port of their own). */
  selfUrl?: string;
  /**
   * Seed the administrator as a fresh install without SHUTU_ADMIN_PASSWORD does: admin123, to be
   * changed at first login (every other call 403 请先修改初始密码). By default the suites seed it
   * as an operator-chosen admin123, which needs no change.
   */
  initialAdminPassword?: boolean;
  /** Open DuckDB files in an engine process, as the bundle does (default: inside the test process). */
  duckdbEngineProcess?: boolean;
  /** The jobs' logger (default silent): a test may keep their warnings to explain a wait that timed out. */
  jobLog?: Logger;
}

/** Order rows of the demo warehouse in tests: the generator's smallest. */
export const TEST_DEMO_SCALE = 1000;

/**
 * A server's config for a test: no web app, no key from the environment, the given data directory
 * and the smallest demo warehouse. DuckDB runs inside the test process unless asked: a test may
 * open the warehouse file itself beside the server (one process per file). The engine process is
 * what the bundle, the e2e and the spawned-server tests run (SHUTU_DUCKDB_PROCESS unset);
 * SHUTU_TEST_DUCKDB_PROCESS=1 runs the suites with it.
 */
export function testConfig(dataDir: string, overrides: { databaseUrl?: string; duckdbEngineProcess?: boolean | undefined } = {}): Config {
  return {
    ...loadConfig({}),
    webDist: undefined,
    databaseUrl: overrides.databaseUrl,
    secretKey: undefined,
    dataDir,
    demoScale: TEST_DEMO_SCALE,
    duckdbEngineProcess: overrides.duckdbEngineProcess ?? process.env.SHUTU_TEST_DUCKDB_PROCESS === '1',
  };
}

/**
 * A migrated, seeded app on a throw-away store, driven through `app.inject`. Its data
 * directory (credentials key, warehouse) is a temp directory removed by `close()`: tests
 * never write ./data.
 */
export async function createTestServer(kind: StoreKind, buildOptions: BuildOptions = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const { store, cleanup } = await openTestStore(kind);
  await migrateToLatest(store.db);
  await seed(store.db, options.initialAdminPassword ? {} : { adminPassword: FIRST_ADMIN.password });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-data-'));
  const config = testConfig(dataDir, { duckdbEngineProcess: options.duckdbEngineProcess });
  const ctx: AppContext = { config, store, db: store.db };
  if (options.warehouse) await ensureBuiltinWarehouse(ctx);
  if (options.selfUrl) ctx.selfUrl = options.selfUrl;
  const jobs = options.jobs
    ? await Jobs.start(store, options.jobLog ?? pino({ level: 'silent' }), moduleJobs(ctx, options.jobLog ?? pino({ level: 'silent' })), {
        work: true,
        pollingIntervalSeconds: 0.5,
      })
    : undefined;
  ctx.jobs = jobs;
  const app = await buildApp(ctx, buildOptions);
  await app.ready();
  return {
    app,
    ctx,
    store,
    async login(account: string = FIRST_ADMIN.account, password: string = FIRST_ADMIN.password) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password: md5Hex(password) } });
      if (res.statusCode !== 200) throw new Error(`login as ${account} failed: ${res.statusCode} ${res.body}`);
      return { authorization: `Bearer ${res.json<{ data: { token: string } }>().data.token}` };
    },
    async close() {
      await app.close();
      await jobs?.stop();
      await cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
