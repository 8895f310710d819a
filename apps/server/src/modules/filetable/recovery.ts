import { ConnectorError, type Driver } from '@shutu/connectors';
import { formatMessage, zhCN } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { ownerGoneHere, ownerOf, type Owner } from '../../platform/files/owner.ts';
import { sweepUploads } from '../../platform/files/upload.ts';
import { AppError, conflict } from '../../platform/http/errors.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { abandonFileTable, claimFileTable, deleteFileTableRow, markFileTableReady, pendingLoads, type PendingLoad } from './repo.ts';

/**
 * Loads a crash interrupted (docs/filetables-and-sqlviews.md "Crash safety"). A load writes a
 * private staging table and records it on its reservation row with its owner and a heartbeat;
 * a reservation whose owner is gone is settled by whoever finds it — at start-up, or when its
 * name is asked for again:
 * - 'loading': the staging table is dropped and the reservation deleted (the name is free);
 * - 'publishing' (every row was loaded): the rename is finished and the file table marked
 *   ready, so the table and its record exist together or not at all.
 * Only staging tables are ever dropped (and, for reservations from before staging, the
 * half-loaded table the reservation itself created).
 */

/** Logs what recovery did or could not do. */
export interface RecoveryLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Whether the owner of a pending load is dead, seen from `self`. The embedded store (PGlite) is
 * opened by one process only, so every other owner is; with a shared PostgreSQL store an owner
 * is dead when its heartbeat is stale, or when it ran on this host and its process is gone.
 */
export function loadOwnerGone(ctx: AppContext, load: PendingLoad, self: Owner): boolean {
  if (load.ownerInstance === self.key) return false;
  if (load.ownerInstance === null || ctx.store.kind === 'pglite') return true;
  return load.stale || ownerGoneHere(load.ownerInstance, self);
}

/**
 * Gives a loaded ('publishing') reservation's table its name and marks it ready, whichever step a
 * crash stopped at: the staging table still there is renamed; gone, the rename happened if the
 * table has its name. 409 when the name was taken meanwhile (the staging table is dropped and the
 * reservation deleted), the interrupted message when neither table is left.
 */
export async function publishLoad(ctx: AppContext, driver: Driver, load: { id: number; tableName: string; stagingName: string | null }): Promise<void> {
  const staging = load.stagingName;
  if (staging !== null && (await driver.tableExists(staging))) {
    try {
      await driver.renameTable(staging, load.tableName);
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'tableExists') {
        await driver.dropTable(staging);
        await deleteFileTableRow(ctx.db, load.id);
        throw conflict(formatMessage(zhCN.fileTableExists, { name: load.tableName }));
      }
      // The answer may have been lost after the engine renamed it: only a staging table still there says it did not.
      if (await driver.tableExists(staging)) throw error;
    }
  }
  if (!(await driver.tableExists(load.tableName))) {
    await deleteFileTableRow(ctx.db, load.id);
    throw conflict(zhCN.fileTableLoadInterrupted);
  }
  await markFileTableReady(ctx.db, load.id);
}

/**
 * Settles a dead owner's load. False when another process claimed it first, or when its data
 * source could not be reached: then the reservation is left abandoned for a later try.
 */
export async function recoverLoad(ctx: AppContext, load: PendingLoad, log: RecoveryLog): Promise<boolean> {
  const self = ownerOf(ctx);
  if (!(await claimFileTable(ctx.db, load.id, load.ownerInstance, self.key))) return false;
  const about = {
    id: load.id,
    datasourceId: load.datasourceId,
    table: load.tableName,
    staging: load.stagingName,
    status: load.status,
    owner: load.ownerInstance,
  };
  try {
    const driver = await getDataSourceDriver(ctx, load.datasourceId);
    if (load.status === 'loading') {
      // Before staging (0014) a load wrote the table under its own name: that half table goes.
      await driver.dropTable(load.stagingName ?? load.tableName);
      await deleteFileTableRow(ctx.db, load.id, self.key);
      log.info(about, 'interrupted file table load dropped');
    } else {
      await publishLoad(ctx, driver, load).catch((error: unknown) => {
        // A taken name or a vanished table: the reservation is gone, nothing is left to settle.
        if (!(error instanceof AppError)) throw error;
      });
      log.info(about, 'interrupted file table publish settled');
    }
    return true;
  } catch (error) {
    await abandonFileTable(ctx.db, load.id, self.key).catch(() => undefined);
    log.warn({ ...about, err: error }, 'interrupted file table load left for a later try');
    return false;
  }
}

/** Settles the dead owners' loads of one name (before the name is reserved again). */
export async function reclaimName(ctx: AppContext, datasourceId: number, tableName: string, log: RecoveryLog): Promise<void> {
  const self = ownerOf(ctx);
  for (const load of await pendingLoads(ctx.db, { datasourceId, tableName })) {
    if (loadOwnerGone(ctx, load, self)) await recoverLoad(ctx, load, log);
  }
}

/** How long start-up waits for recovery; what is left (an unreachable source) goes on in the background. */
const STARTUP_WAIT_MS = 15_000;

/**
 * Start-up: removes upload temp files no live process owns (platform/files/upload.ts
 * `sweepUploads`; every other owner's when the embedded store lives in the data directory) and
 * settles every load whose owner is dead.
 */
export async function recoverFileTables(ctx: AppContext, log: RecoveryLog, options: { waitMs?: number } = {}): Promise<void> {
  const self = ownerOf(ctx);
  const uploadsRemoved = await sweepUploads(ctx.config.dataDir, self, { exclusive: ctx.store.kind === 'pglite' });
  const work = (async () => {
    const loads = (await pendingLoads(ctx.db)).filter((load) => loadOwnerGone(ctx, load, self));
    let settled = 0;
    for (const load of loads) if (await recoverLoad(ctx, load, log)) settled++;
    if (uploadsRemoved > 0 || loads.length > 0)
      log.info({ uploadsRemoved, loadsSettled: settled, loadsLeft: loads.length - settled }, 'file table recovery done');
  })().catch((error: unknown) => log.warn({ err: error }, 'file table recovery failed'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, options.waitMs ?? STARTUP_WAIT_MS)))]);
  clearTimeout(timer);
}
