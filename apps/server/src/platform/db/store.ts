import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { PGlitePool, type QueryResult } from './pglite-pool.ts';
import type { ExecuteSql } from './execute-sql.ts';
import { WriteWatchPlugin } from '../cache/watch.ts';
import { registerWriteWatch } from '../cache/coherent.ts';

/** Kysely on the store, with its writes to the read path's tables watched (platform/cache/watch.ts). */
function storeKysely(dialect: PostgresDialect): Kysely<Database> {
  const watch = new WriteWatchPlugin();
  const db = new Kysely<Database>({ dialect, plugins: [new CamelCasePlugin(), watch] });
  registerWriteWatch(db, watch);
  return db;
}

export type { ExecuteSql } from './execute-sql.ts';

export interface MetadataStore {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** For pg-boss on PGlite; on PostgreSQL pg-boss opens its own pool from `connectionString`. */
  executeSql: ExecuteSql;
  connectionString: string | undefined;
  /** PGlite only: the whole cluster as a tarball, to start other stores from (`pgliteTemplate`). */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://… for a real server. */
  databaseUrl?: string;
  /** Directory for embedded PGlite; omitted means in memory (tests). */
  pgliteDir?: string;
  /**
   * PGlite: a `snapshot()` to start from instead of an empty cluster. Creating a cluster (initdb)
   * takes seconds; restoring a migrated one a fraction of that (test stores).
   */
  pgliteTemplate?: Blob;
  /** Told when an idle PostgreSQL connection fails; the pool replaces it. */
  onIdleError?: (error: Error) => void;
}

export async function openStore(options: StoreOptions): Promise<MetadataStore> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client that dies (server restart, terminated backend) is dropped by the pool and the
    // next query reconnects; without a listener its 'error' event would crash the process.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = storeKysely(new PostgresDialect({ pool }));
    return {
      db,
      kind: 'postgres',
      connectionString: options.databaseUrl,
      executeSql: async (text, values) => {
        const r = await pool.query(text, values);
        return { command: r.command as QueryResult['command'], rowCount: r.rowCount ?? 0, rows: r.rows };
      },
      close: () => db.destroy(),
    };
  }
  if (options.pgliteDir) fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  const pglite = new PGlite({ dataDir: options.pgliteDir, loadDataDir: options.pgliteTemplate });
  await pglite.waitReady;
  const pool = new PGlitePool(pglite);
  // PGlitePool implements the part of PostgresPool that Kysely uses (no cursors: we never stream the store).
  const db = storeKysely(new PostgresDialect({ pool: pool as unknown as PostgresPool }));
  return {
    db,
    kind: 'pglite',
    connectionString: undefined,
    executeSql: (text, values) => pool.query(text, values),
    snapshot: () => pglite.dumpDataDir('none'),
    close: () => db.destroy(),
  };
}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
