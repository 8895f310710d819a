import type { Logger } from 'pino';
import { sql } from 'kysely';
import type { InterfaceKind } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import * as client from './client.ts';
import { appAccess, type AppAccess } from './tokens.ts';
import { rebuildTable, targetSource } from './warehouse.ts';

/**
 * One pull of a data task (docs/platforms.md "Pulls"): claim the task, fetch incrementally, upsert
 * the rows in one transaction, rebuild the warehouse table, write the log row. Transient failures
 * (network, 5xx, -1) are retried with backoff; 40001 / 42001 refresh the token once and call
 * again; any other platform error (45009 quota, 61023 refresh token) fails the pull with its reason.
 */

/** Backoff before retry n (ms); tests shorten it. */
export const pullRetry = { attempts: 3, baseMs: 500 };
/** A claim older than this belongs to a pull that died without the recovery hook (minutes). */
const STALE_CLAIM = sql<Date>`now() - interval '30 minutes'`;
/** First pull of daily analytics: this many days back; WeChat keeps yesterday as the newest day. */
const FIRST_DAYS = 30;
const SPAN_DAYS = 7;
const BATCH = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PullOutcome {
  result: boolean;
  amount: number;
  failReason: string;
  span: string;
}

/** The app's token for one pull: read (or refreshed) once, refreshed again only when the platform refuses it. */
interface PullSession {
  appId: number;
  access?: AppAccess;
}

/** Calls `fn` with the pull's token: retries transient errors, refreshes once on a refused token. */
async function withToken<T>(ctx: AppContext, session: PullSession, fn: (base: string, token: string) => Promise<T>): Promise<T> {
  session.access ??= await appAccess(ctx, session.appId);
  let refreshed = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn(session.access.apiBaseUrl, session.access.token);
    } catch (error) {
      if (client.isTokenError(error) && !refreshed) {
        refreshed = true;
        session.access = await appAccess(ctx, session.appId, session.access.token);
        continue;
      }
      if (error instanceof client.PlatformError && error.transient && attempt < pullRetry.attempts) {
        await sleep(pullRetry.baseMs * 2 ** (attempt - 1));
        continue;
      }
      throw error;
    }
  }
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (s: string, n: number) => day(new Date(Date.parse(`${s}T00:00:00Z`) + n * 86_400_000));

async function pullFans(ctx: AppContext, appId: number, started: Date): Promise<{ amount: number; span: string }> {
  const session: PullSession = { appId };
  const openids: string[] = [];
  let next = '';
  for (;;) {
    const page = await withToken(ctx, session, (base, token) => client.followers(base, token, next));
    const ids = page.data?.openid ?? [];
    openids.push(...ids);
    if (ids.length === 0 || !page.next_openid || openids.length >= page.total) break;
    next = page.next_openid;
  }
  const users: client.WechatUser[] = [];
  for (let i = 0; i < openids.length; i += BATCH) {
    const batch = openids.slice(i, i + BATCH);
    users.push(...(await withToken(ctx, session, (base, token) => client.usersInfo(base, token, batch))).user_info_list);
  }
  const subscribed = users.filter((u) => u.subscribe === 1);
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < subscribed.length; i += 500) {
      const rows = subscribed.slice(i, i + 500).map((u) => ({
        applyId: appId,
        openid: u.openid,
        nickname: u.nickname ?? '',
        sex: u.sex ?? 0,
        headimgurl: u.headimgurl ?? '',
        subscribeTime: u.subscribe_time ? new Date(u.subscribe_time * 1000) : null,
        pulledTime: started,
      }));
      // The platform's values change; a local edit (local_*) is kept.
      await trx
        .insertInto('cdpFan')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['applyId', 'openid']).doUpdateSet((eb) => ({
            nickname: eb.ref('excluded.nickname'),
            sex: eb.ref('excluded.sex'),
            headimgurl: eb.ref('excluded.headimgurl'),
            subscribeTime: eb.ref('excluded.subscribeTime'),
            pulledTime: eb.ref('excluded.pulledTime'),
          })),
        )
        .execute();
    }
    // The follower list is complete: who is no longer in it has unfollowed.
    await trx.deleteFrom('cdpFan').where('applyId', '=', appId).where('pulledTime', '<', started).execute();
  });
  return { amount: subscribed.length, span: `粉丝 ${subscribed.length} 人` };
}

async function pullStats(ctx: AppContext, appId: number, kind: 'user_summary' | 'user_cumulate', now: Date): Promise<{ amount: number; span: string }> {
  const session: PullSession = { appId };
  const yesterday = day(new Date(now.getTime() - 86_400_000));
  const last = await ctx.db
    .selectFrom('cdpStat')
    .select((eb) => eb.fn.max('refDate').as('last'))
    .where('applyId', '=', appId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  // From the newest day already stored (the platform may still have completed it), else FIRST_DAYS back.
  const from = last?.last ?? addDays(yesterday, -(FIRST_DAYS - 1));
  const rows: client.SummaryRow[] = [];
  for (let begin = from; begin <= yesterday; begin = addDays(begin, SPAN_DAYS)) {
    const end = addDays(begin, SPAN_DAYS - 1) < yesterday ? addDays(begin, SPAN_DAYS - 1) : yesterday;
    rows.push(...(await withToken(ctx, session, (base, token) => client.datacube(base, token, kind, begin, end))).list);
  }
  if (rows.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto('cdpStat')
          .values(
            rows.slice(i, i + 500).map((r) => ({
              applyId: appId,
              kind,
              refDate: r.ref_date,
              userSource: r.user_source ?? 0,
              newUser: r.new_user ?? 0,
              cancelUser: r.cancel_user ?? 0,
              cumulateUser: r.cumulate_user ?? 0,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['applyId', 'kind', 'refDate', 'userSource']).doUpdateSet((eb) => ({
              newUser: eb.ref('excluded.newUser'),
              cancelUser: eb.ref('excluded.cancelUser'),
              cumulateUser: eb.ref('excluded.cumulateUser'),
            })),
          )
          .execute();
      }
    });
  }
  return { amount: rows.length, span: from <= yesterday ? `${from} ~ ${yesterday}` : '' };
}

/** Claims the task (one pull at a time per task across processes); false when another pull runs. */
async function claim(ctx: AppContext, taskId: number): Promise<boolean> {
  const row = await ctx.db
    .updateTable('cdpTask')
    .set({ runningSince: sql<Date>`now()` })
    .where('id', '=', taskId)
    .where((eb) => eb.or([eb('runningSince', 'is', null), eb('runningSince', '<', STALE_CLAIM)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Frees a task whose pull died (the job's abandoned hook). */
export async function releaseTask(ctx: AppContext, taskId: number): Promise<void> {
  await ctx.db.updateTable('cdpTask').set({ runningSince: null }).where('id', '=', taskId).execute();
}

/** Runs one pull of the task and logs it; undefined when another pull of it is running. */
export async function runPull(
  ctx: AppContext,
  log: Logger,
  taskId: number,
  trigger: 'schedule' | 'manual',
  now = new Date(),
): Promise<PullOutcome | undefined> {
  if (!(await claim(ctx, taskId))) return undefined;
  const task = await ctx.db
    .selectFrom('cdpTask')
    .innerJoin('cdpApp', 'cdpApp.id', 'cdpTask.applyId')
    .innerJoin('cdpInterface', 'cdpInterface.id', 'cdpTask.interfaceId')
    .innerJoin('cdpPlatform', 'cdpPlatform.id', 'cdpApp.platformId')
    .select([
      'cdpTask.id',
      'cdpTask.applyId',
      'cdpApp.appName',
      'cdpInterface.interfaceName',
      'cdpInterface.kind',
      'cdpInterface.tableName',
      'cdpApp.platformId',
      'cdpPlatform.datasourceId',
    ])
    .where('cdpTask.id', '=', taskId)
    .executeTakeFirst();
  if (!task) return undefined;
  let outcome: PullOutcome;
  try {
    const got = task.kind === 'fans' ? await pullFans(ctx, task.applyId, now) : await pullStats(ctx, task.applyId, task.kind, now);
    await rebuildTable(ctx, {
      sourceId: await targetSource(ctx, task.datasourceId),
      table: task.tableName,
      platformId: task.platformId,
      kind: task.kind as InterfaceKind,
      comment: task.interfaceName,
    });
    outcome = { result: true, amount: got.amount, failReason: '', span: got.span };
  } catch (error) {
    const failReason = error instanceof AppError ? error.message : client.reasonOf(error);
    log.warn({ err: error, task: taskId }, 'cdp pull failed');
    outcome = { result: false, amount: 0, failReason, span: '' };
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cdpLog')
      .values({ applyId: task.applyId, taskId, appName: task.appName, interfaceName: task.interfaceName, ...outcome, trigger })
      .execute();
    await trx.updateTable('cdpTask').set({ runningSince: null, lastPullTime: new Date(), lastResult: outcome.result }).where('id', '=', taskId).execute();
  });
  return outcome;
}
