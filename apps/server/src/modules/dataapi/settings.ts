import { DATA_API_LOG_RETENTION_DAYS, dataApiSettingsSchema, type DataApiSettings, type DataApiSettingsSave } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { allowedHosts, saveAllowedHosts } from './external.ts';
import { readSetting, writeSetting } from './runtime-repo.ts';

/**
 * The module's settings (administrators, `/system/dataapi`): the outgoing-host allow-list and
 * how many days the call log keeps, how long identical published calls share an answer (docs/dataapi.md "Call log"). The log grows by one row per
 * published call, so older rows are deleted at start and hourly, in batches that never hold a
 * long lock on a busy log.
 */

const LOG_RETENTION_DAYS = 'logRetentionDays';
const CACHE_SECONDS = 'cacheSeconds';
/** Another process's change of the cache time is seen within this long (this process's at once). */
const CACHE_SETTING_MEMO_MS = 5_000;
const cacheSecondsMemo = new WeakMap<AppContext, { value: number; until: number }>();

/** Seconds identical published calls share an answer (0: none); read on every call, so kept briefly in memory. */
export async function cacheSeconds(ctx: AppContext): Promise<number> {
  const memo = cacheSecondsMemo.get(ctx);
  if (memo && memo.until > Date.now()) return memo.value;
  const parsed = dataApiSettingsSchema.shape.cacheSeconds.safeParse(Number((await readSetting(ctx.db, CACHE_SECONDS)) ?? 0));
  const value = parsed.success ? parsed.data : 0;
  cacheSecondsMemo.set(ctx, { value, until: Date.now() + CACHE_SETTING_MEMO_MS });
  return value;
}
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 10_000;

export async function logRetentionDays(ctx: AppContext): Promise<number> {
  const parsed = dataApiSettingsSchema.shape.logRetentionDays.safeParse(Number(await readSetting(ctx.db, LOG_RETENTION_DAYS)));
  return parsed.success ? parsed.data : DATA_API_LOG_RETENTION_DAYS;
}

export async function dataApiSettings(ctx: AppContext): Promise<DataApiSettings> {
  return { allowedHosts: await allowedHosts(ctx), logRetentionDays: await logRetentionDays(ctx), cacheSeconds: await cacheSeconds(ctx) };
}

/** Changes what the body names and keeps the rest. */
export async function saveDataApiSettings(ctx: AppContext, body: DataApiSettingsSave): Promise<DataApiSettings> {
  if (body.allowedHosts !== undefined) await saveAllowedHosts(ctx, body.allowedHosts);
  if (body.cacheSeconds !== undefined) {
    await writeSetting(ctx.db, CACHE_SECONDS, String(body.cacheSeconds));
    cacheSecondsMemo.delete(ctx);
  }
  if (body.logRetentionDays !== undefined) {
    await writeSetting(ctx.db, LOG_RETENTION_DAYS, String(body.logRetentionDays));
    await pruneCallLogs(ctx);
  }
  return dataApiSettings(ctx);
}

/** Deletes calls older than the retention; answers how many went. */
export async function pruneCallLogs(ctx: AppContext): Promise<number> {
  const days = await logRetentionDays(ctx);
  const cutoff = new Date(Date.now() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const batch = ctx.db.selectFrom('dataApiCallLog').select('id').where('createTime', '<', cutoff).limit(PRUNE_BATCH);
    const result = await ctx.db.deleteFrom('dataApiCallLog').where('id', 'in', batch).executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n < PRUNE_BATCH) return deleted;
  }
}

/** Prunes at start and hourly while the app runs. */
export function scheduleCallLogPruning(app: App, ctx: AppContext): void {
  const prune = () => void pruneCallLogs(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'data-API call log retention failed'));
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onReady', async () => prune());
  app.addHook('onClose', async () => clearInterval(timer));
}
