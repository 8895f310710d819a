import path from 'node:path';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import type { App, AppContext } from './context.ts';
import type { Config } from './platform/config.ts';
import { migrateToLatest, openStore, type MetadataStore } from './platform/db/store.ts';
import { seed, type SeedResult } from './platform/db/seed.ts';
import { Jobs } from './platform/jobs/boss.ts';
import { housekeepingJob } from './platform/jobs/housekeeping.ts';
import { resolveSecretKey } from './platform/crypto.ts';
import { ensureBuiltinWarehouse } from './modules/datasource/warehouse.ts';
import { recoverFileTables } from './modules/filetable/recovery.ts';
import { ensureDemoContent, requestDemoThumbnails } from './modules/board/demo-content.ts';
import { moduleJobs } from './modules/jobs.ts';
import { closeFileStorage, fileStorage } from './platform/files/storage.ts';
import { closeRenderer } from './platform/render/renderer.ts';
import { openCacheBus } from './platform/cache/open.ts';

export interface RunningServer {
  app: App;
  store: MetadataStore;
  jobs: Jobs | undefined;
  seeded: SeedResult;
  url: string;
  close(): Promise<void>;
}

export function openConfiguredStore(config: Config): Promise<MetadataStore> {
  return openStore({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'metadata') });
}

/** Opens the store, migrates, seeds, starts jobs and listens: what `serve` does. */
export async function startServer(config: Config, log: Logger = pino({ level: config.logLevel }), options: { jobs?: boolean } = {}): Promise<RunningServer> {
  const store = await openConfiguredStore(config);
  const applied = await migrateToLatest(store.db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const seeded = await seed(store.db, { adminPassword: config.adminPassword });
  // Before anything is cached: every process sharing the store forgets what another one changes.
  const bus = await openCacheBus(store, log);
  const ctx: AppContext = { config, store, db: store.db, bus };
  // The credentials key (created on first start) and the embedded warehouse, before any request.
  resolveSecretKey(config);
  // The file storage answers (the directory is writable, the bucket reachable), else the start stops saying why.
  await fileStorage(ctx).check();
  const warehouse = await ensureBuiltinWarehouse(ctx);
  log.info({ path: warehouse.path, demo: warehouse.demo, registered: warehouse.registered }, 'warehouse ready');
  // Uploads and file-table loads a killed process left: temp files removed, staging tables dropped.
  await recoverFileTables(ctx, log);
  const demo = await ensureDemoContent(ctx, log);
  // The embedded store is this process's alone: jobs another process left running are abandoned at once.
  const jobs =
    options.jobs === false
      ? undefined
      : await Jobs.start(store, log, [housekeepingJob(store.db, log), ...moduleJobs(ctx, log)], { work: false, exclusiveStore: !store.connectionString });
  ctx.jobs = jobs;
  const app = await buildApp(ctx, { logger: log });
  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  const url = `http://localhost:${port}`;
  ctx.selfUrl = config.selfUrl ?? `http://127.0.0.1:${port}`;
  // Handlers start once the server knows its own URL: a send left queued by a crash renders at once.
  await jobs?.work();
  await requestDemoThumbnails(ctx, demo);
  return {
    app,
    store,
    jobs,
    seeded,
    url,
    async close() {
      await app.close();
      await jobs?.stop();
      await closeRenderer(ctx);
      await closeFileStorage(ctx);
      await bus.close();
      await store.close();
    },
  };
}
