import {
  ACCESS_TYPES,
  CDP_PULL_JOB,
  CYCLE_UNIT_SECONDS,
  cdpMessages,
  type DataTask,
  type Fan,
  type InterfaceKind,
  type JoinApp,
  type OfficialAccount,
  type PullLog,
  type TaskData,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql } from '../read/index.ts';
import * as client from './client.ts';
import { ensureTasks } from './platforms.ts';
import { platformAccess, sealSecret } from './tokens.ts';
import { columnsOf, rebuildFor, targetSource } from './warehouse.ts';

/** Connected apps, their data tasks, logs and fans (docs/platforms.md). */

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
const MIN_CYCLE_SECONDS = 60;

function appQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('cdpApp')
    .innerJoin('cdpPlatform', 'cdpPlatform.id', 'cdpApp.platformId')
    .select([
      'cdpApp.id',
      'cdpApp.appName',
      'cdpApp.appIcon',
      'cdpApp.signature',
      'cdpApp.authorizerAppId',
      'cdpApp.status',
      'cdpApp.authTime',
      'cdpApp.cancelAuthTime',
      'cdpApp.platformId',
      'cdpPlatform.platformName',
      'cdpPlatform.accessType',
    ]);
}

type AppRow = Awaited<ReturnType<ReturnType<typeof appQuery>['executeTakeFirstOrThrow']>>;
const toJoinApp = (r: AppRow): JoinApp => ({
  id: r.id,
  appName: r.appName,
  appIcon: r.appIcon,
  signature: r.signature,
  authorizerAppId: r.authorizerAppId,
  status: r.status,
  authTime: iso(r.authTime),
  cancelAuthTime: iso(r.cancelAuthTime),
  platformDictId: r.platformId,
  platformName: r.platformName,
  joinType: ACCESS_TYPES[r.accessType as 0 | 1 | 2 | 3] ?? String(r.accessType),
});

export async function joinPage(ctx: AppContext, q: { current: number; size: number; appName?: string | undefined }) {
  let base = appQuery(ctx);
  if (q.appName) base = base.where('cdpApp.appName', 'ilike', `%${q.appName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const total = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  const rows = await base
    .orderBy('cdpApp.id', 'desc')
    .limit(q.size)
    .offset((q.current - 1) * q.size)
    .execute();
  return { records: rows.map(toJoinApp), total: Number(total?.n ?? 0), current: q.current, size: q.size };
}

export async function joinInfo(ctx: AppContext, id: number): Promise<JoinApp> {
  const row = await appQuery(ctx).where('cdpApp.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(cdpMessages.appNotFound);
  return toJoinApp(row);
}

export async function officialAccounts(ctx: AppContext): Promise<OfficialAccount[]> {
  const rows = await appQuery(ctx).orderBy('cdpApp.id').execute();
  return rows.map((r) => ({ id: r.id, headImg: r.appIcon, nickName: r.appName, signature: r.signature, status: r.status }));
}

/** The authorisation link: a pre-auth code on the platform's authorisation page, back to `redirectUri`. */
export async function authUrl(ctx: AppContext, platformId: number, redirectUri: string): Promise<string> {
  const access = await platformAccess(ctx, platformId);
  const pre = await client.preAuthCode(access.apiBaseUrl, access.componentAppId, access.token);
  return client.authPageLink(access.authPageUrl, access.componentAppId, pre.pre_auth_code, redirectUri);
}

/** Finishes the join (spec 1 §2.11): auth_code → authorizer tokens and info; a re-authorisation updates the app. */
export async function joinCallback(ctx: AppContext, caller: Caller, input: { platformDictId: number; auth_code: string }): Promise<{ id: number }> {
  const access = await platformAccess(ctx, input.platformDictId);
  let auth: Awaited<ReturnType<typeof client.queryAuth>>['authorization_info'];
  let info: Awaited<ReturnType<typeof client.authorizerInfo>>['authorizer_info'];
  try {
    auth = (await client.queryAuth(access.apiBaseUrl, access.componentAppId, access.token, input.auth_code)).authorization_info;
    info = (await client.authorizerInfo(access.apiBaseUrl, access.componentAppId, access.token, auth.authorizer_appid)).authorizer_info;
  } catch (error) {
    if (error instanceof client.PlatformError) throw new AppError(502, `${cdpMessages.authFailed}：${client.reasonOf(error)}`);
    throw error;
  }
  const now = new Date();
  const values = {
    appName: info.nick_name ?? auth.authorizer_appid,
    appIcon: info.head_img ?? '',
    signature: info.signature ?? '',
    status: 1,
    authTime: now,
    cancelAuthTime: null,
    accessToken: sealSecret(ctx, auth.authorizer_access_token),
    accessTokenExpires: new Date(now.getTime() + auth.expires_in * 1000),
    refreshToken: sealSecret(ctx, auth.authorizer_refresh_token),
  };
  const row = await ctx.db
    .insertInto('cdpApp')
    .values({ ...values, platformId: input.platformDictId, authorizerAppId: auth.authorizer_appid, createUserId: caller.userId })
    .onConflict((oc) => oc.columns(['platformId', 'authorizerAppId']).doUpdateSet(values))
    .returning('id')
    .executeTakeFirstOrThrow();
  await ensureTasks(ctx, row.id);
  return { id: row.id };
}

function taskQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('cdpTask')
    .innerJoin('cdpInterface', 'cdpInterface.id', 'cdpTask.interfaceId')
    .select([
      'cdpTask.id',
      'cdpTask.applyId',
      'cdpTask.interfaceId',
      'cdpTask.jobId',
      'cdpTask.unit',
      'cdpTask.value',
      'cdpTask.lastPullTime',
      'cdpTask.lastResult',
      'cdpInterface.interfaceName',
      'cdpInterface.dataType',
      'cdpInterface.tableName',
      'cdpInterface.kind',
    ]);
}

type TaskRow = Awaited<ReturnType<ReturnType<typeof taskQuery>['executeTakeFirstOrThrow']>>;
const toTask = (r: TaskRow): DataTask => ({
  id: r.id,
  interfaceName: r.interfaceName,
  dataType: r.dataType,
  applyId: r.applyId,
  interfaceDictId: r.interfaceId,
  jobId: r.jobId,
  unit: (r.unit as DataTask['unit']) ?? null,
  value: r.value,
  tableName: r.tableName,
  lastPullTime: iso(r.lastPullTime),
  lastResult: r.lastResult,
});

export async function taskList(ctx: AppContext, q: { applyId: number; current: number; size: number }) {
  await joinInfo(ctx, q.applyId);
  const all = await taskQuery(ctx).where('cdpTask.applyId', '=', q.applyId).orderBy('cdpInterface.id').execute();
  const records = all.slice((q.current - 1) * q.size, q.current * q.size).map(toTask);
  return { records, total: all.length, current: q.current, size: q.size };
}

export async function taskUpdate(ctx: AppContext, input: { id: number; unit: keyof typeof CYCLE_UNIT_SECONDS; value: number }): Promise<DataTask> {
  if (input.value * CYCLE_UNIT_SECONDS[input.unit] < MIN_CYCLE_SECONDS)
    throw badRequest(cdpMessages.cycleTooShort, [{ field: 'value', message: cdpMessages.cycleTooShort }]);
  // A new cycle starts from now: last_slot forgets the old cycle's slots.
  const done = await ctx.db.updateTable('cdpTask').set({ unit: input.unit, value: input.value, lastSlot: null }).where('id', '=', input.id).executeTakeFirst();
  if (!done.numUpdatedRows) throw notFound(cdpMessages.taskNotFound);
  return toTask(await taskQuery(ctx).where('cdpTask.id', '=', input.id).executeTakeFirstOrThrow());
}

/** Manual pull (taskRefresh): queued like a scheduled one; only dataType "0" interfaces. */
export async function taskRefresh(ctx: AppContext, jobId: string): Promise<void> {
  const task = await taskQuery(ctx).where('cdpTask.jobId', '=', jobId).executeTakeFirst();
  if (!task) throw notFound(cdpMessages.taskNotFound);
  if (task.dataType !== '0') throw badRequest(cdpMessages.manualPullOnly);
  const app = await joinInfo(ctx, task.applyId);
  if (app.status !== 1) throw new AppError(409, cdpMessages.notAuthorised);
  if (!ctx.jobs) throw new AppError(503, cdpMessages.jobsOff);
  await ctx.jobs.send(CDP_PULL_JOB, { taskId: task.id, trigger: 'manual' }, { singletonKey: `manual:${task.id}`, retryLimit: 0 });
}

/** The data preview of an interface (taskData): the app's rows of its warehouse table, read through the read module. */
export async function taskData(
  ctx: AppContext,
  caller: Caller,
  q: { applyId: number; interfaceDictId: number; current: number; size: number },
): Promise<TaskData> {
  const task = await taskQuery(ctx).where('cdpTask.applyId', '=', q.applyId).where('cdpTask.interfaceId', '=', q.interfaceDictId).executeTakeFirst();
  if (!task) throw notFound(cdpMessages.taskNotFound);
  const platform = await ctx.db
    .selectFrom('cdpApp')
    .innerJoin('cdpPlatform', 'cdpPlatform.id', 'cdpApp.platformId')
    .select('cdpPlatform.datasourceId')
    .where('cdpApp.id', '=', q.applyId)
    .executeTakeFirstOrThrow();
  const columns = columnsOf(task.kind as InterfaceKind);
  const column = columns.map((c) => ({ prop: c.name, label: c.comment ?? c.name }));
  if (!task.lastPullTime) return { column, count: 0, data: [] };
  const sourceId = await targetSource(ctx, platform.datasourceId);
  const read = (build: (quote: (s: string) => string, p: (v: number) => string) => string) =>
    readBoundSql(
      ctx,
      caller,
      sourceId,
      (dialect) => {
        const params: number[] = [];
        return {
          sql: build(
            (s) => dialect.quoteIdentifier(s),
            (v) => (params.push(v), dialect.placeholder(params.length)),
          ),
          params,
        };
      },
      { max: q.size, timeoutMs: 30_000, field: 'interfaceDictId' },
    );
  const order = task.kind === 'fans' ? 'openid' : 'ref_date DESC, apply_id';
  const [count] = (await read((quote, p) => `SELECT COUNT(*) AS n FROM ${quote(task.tableName)} WHERE apply_id = ${p(q.applyId)}`)).rows;
  const page = await read(
    (quote, p) =>
      `SELECT ${columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(task.tableName)} WHERE apply_id = ${p(q.applyId)} ORDER BY ${order} LIMIT ${p(q.size)} OFFSET ${p((q.current - 1) * q.size)}`,
  );
  const plain = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : v);
  return { column, count: Number(count?.n ?? 0), data: page.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))) };
}

export async function logList(
  ctx: AppContext,
  q: { applyId: number; taskId?: number | undefined; startDate?: string | undefined; endDate?: string | undefined; current: number; size: number },
) {
  let base = ctx.db.selectFrom('cdpLog').where('applyId', '=', q.applyId);
  if (q.taskId) base = base.where('taskId', '=', q.taskId);
  if (q.startDate) base = base.where('createTime', '>=', new Date(q.startDate));
  if (q.endDate) base = base.where('createTime', '<=', new Date(q.endDate));
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  const rows = await base
    .selectAll()
    .orderBy('createTime', 'desc')
    .orderBy('id', 'desc')
    .limit(q.size)
    .offset((q.current - 1) * q.size)
    .execute();
  const records: PullLog[] = rows.map((r) => ({
    id: r.id,
    createTime: new Date(r.createTime).toISOString(),
    appName: r.appName,
    interfaceName: r.interfaceName,
    taskId: r.taskId,
    amount: r.amount,
    result: r.result,
    failReason: r.failReason,
  }));
  return { records, total: Number(total?.n ?? 0), current: q.current, size: q.size };
}

function fanQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('cdpFan')
    .innerJoin('cdpApp', 'cdpApp.id', 'cdpFan.applyId')
    .select(['cdpFan.applyId', 'cdpApp.appName', 'openid', 'nickname', 'sex', 'headimgurl', 'subscribeTime', 'localNickname', 'localSex', 'localHeadimgurl']);
}
type FanRow = Awaited<ReturnType<ReturnType<typeof fanQuery>['executeTakeFirstOrThrow']>>;
const toFan = (r: FanRow): Fan => ({
  applyId: r.applyId,
  appName: r.appName,
  openid: r.openid,
  nickname: r.localNickname ?? r.nickname,
  sex: r.localSex ?? r.sex,
  headimgurl: r.localHeadimgurl ?? r.headimgurl,
  platform: { nickname: r.nickname, sex: r.sex, headimgurl: r.headimgurl },
  edited: r.localNickname !== null || r.localSex !== null || r.localHeadimgurl !== null,
  subscribeTime: iso(r.subscribeTime),
});

/** The fan list (userPage): fans as pulled, a local edit over the platform's values. */
export async function fanPage(ctx: AppContext, q: { page: number; size: number; applyId?: number | undefined }) {
  let base = fanQuery(ctx);
  if (q.applyId) base = base.where('cdpFan.applyId', '=', q.applyId);
  const total = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  const rows = await base
    .orderBy('cdpFan.applyId')
    .orderBy('openid')
    .limit(q.size)
    .offset((q.page - 1) * q.size)
    .execute();
  return { records: rows.map(toFan), total: Number(total?.n ?? 0), current: q.page, size: q.size };
}

/**
 * Saves a fan's row: each value equal to the platform's clears that field's local edit, any
 * other is kept as the local edit (a later pull changes only the platform's values).
 */
export async function saveFan(ctx: AppContext, input: { applyId: number; openid: string; nickname: string; sex: number; headimgurl: string }): Promise<Fan> {
  const row = await fanQuery(ctx).where('cdpFan.applyId', '=', input.applyId).where('openid', '=', input.openid).executeTakeFirst();
  if (!row) throw notFound(cdpMessages.fanNotFound);
  await ctx.db
    .updateTable('cdpFan')
    .set({
      localNickname: input.nickname === row.nickname ? null : input.nickname,
      localSex: input.sex === row.sex ? null : input.sex,
      localHeadimgurl: input.headimgurl === row.headimgurl ? null : input.headimgurl,
    })
    .where('applyId', '=', input.applyId)
    .where('openid', '=', input.openid)
    .execute();
  // The warehouse table shows the edit at once, not only after the next pull.
  await rebuildFor(ctx, input.applyId, 'fans');
  return toFan(await fanQuery(ctx).where('cdpFan.applyId', '=', input.applyId).where('openid', '=', input.openid).executeTakeFirstOrThrow());
}
