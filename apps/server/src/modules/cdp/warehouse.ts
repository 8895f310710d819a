import { ConnectorError, stagingTableName, type LoadColumn, type LoadRow } from '@shutu/connectors';
import type { InterfaceKind } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findBuiltinRow, getSourceWriter } from '../datasource/index.ts';

/**
 * The warehouse table of an interface (docs/platforms.md "Warehouse tables"). The pulled rows are
 * kept in the metadata store, upserted by their keys (cdp_fan, cdp_stat); after a pull the table
 * is rebuilt from them: loaded into a private staging table, then swapped in (drop, rename). A
 * re-pull of a span therefore never duplicates rows, and a failed load leaves the old table. The
 * table holds every app of the platform type (apply_id, app_name columns). Rebuilds of one table
 * in this process run one after another.
 */

const COLUMNS: Record<InterfaceKind, LoadColumn[]> = {
  fans: [
    { name: 'apply_id', type: 'INTEGER', comment: '接入应用ID' },
    { name: 'app_name', type: 'STRING', comment: '应用名称' },
    { name: 'openid', type: 'STRING', comment: '粉丝openid' },
    { name: 'nickname', type: 'STRING', comment: '昵称' },
    { name: 'sex', type: 'INTEGER', comment: '性别(0未知1男2女)' },
    { name: 'headimgurl', type: 'STRING', comment: '头像' },
    { name: 'platform_nickname', type: 'STRING', comment: '平台昵称' },
    { name: 'subscribe_time', type: 'DATETIME', comment: '关注时间' },
  ],
  user_summary: [
    { name: 'apply_id', type: 'INTEGER', comment: '接入应用ID' },
    { name: 'app_name', type: 'STRING', comment: '应用名称' },
    { name: 'ref_date', type: 'DATE', comment: '日期' },
    { name: 'user_source', type: 'INTEGER', comment: '用户渠道' },
    { name: 'new_user', type: 'INTEGER', comment: '新增用户数' },
    { name: 'cancel_user', type: 'INTEGER', comment: '取消关注用户数' },
  ],
  user_cumulate: [
    { name: 'apply_id', type: 'INTEGER', comment: '接入应用ID' },
    { name: 'app_name', type: 'STRING', comment: '应用名称' },
    { name: 'ref_date', type: 'DATE', comment: '日期' },
    { name: 'cumulate_user', type: 'INTEGER', comment: '累计用户数' },
  ],
};

export const columnsOf = (kind: InterfaceKind) => COLUMNS[kind];

/** The source an interface's table lives in: the platform type's, else the built-in warehouse. */
export async function targetSource(ctx: AppContext, datasourceId: number | null): Promise<number> {
  if (datasourceId) return datasourceId;
  const builtin = await findBuiltinRow(ctx.db);
  if (!builtin) throw new AppError(409, '内置数据仓库不存在');
  return builtin.id;
}

async function* rowsOf(ctx: AppContext, platformId: number, kind: InterfaceKind): AsyncIterable<LoadRow> {
  const apps = ctx.db.selectFrom('cdpApp').select('id').where('platformId', '=', platformId);
  if (kind === 'fans') {
    const fans = await ctx.db
      .selectFrom('cdpFan')
      .innerJoin('cdpApp', 'cdpApp.id', 'cdpFan.applyId')
      .select(['cdpFan.applyId', 'cdpApp.appName', 'openid', 'nickname', 'sex', 'headimgurl', 'subscribeTime', 'localNickname', 'localSex', 'localHeadimgurl'])
      .where('cdpFan.applyId', 'in', apps)
      .orderBy('cdpFan.applyId')
      .orderBy('openid')
      .execute();
    for (const f of fans) {
      yield [
        f.applyId,
        f.appName,
        f.openid,
        f.localNickname ?? f.nickname,
        f.localSex ?? f.sex,
        f.localHeadimgurl ?? f.headimgurl,
        f.nickname,
        f.subscribeTime,
      ];
    }
    return;
  }
  const stats = await ctx.db
    .selectFrom('cdpStat')
    .innerJoin('cdpApp', 'cdpApp.id', 'cdpStat.applyId')
    .select(['cdpStat.applyId', 'cdpApp.appName', 'refDate', 'userSource', 'newUser', 'cancelUser', 'cumulateUser'])
    .where('cdpStat.applyId', 'in', apps)
    .where('kind', '=', kind)
    .orderBy('cdpStat.applyId')
    .orderBy('refDate')
    .orderBy('userSource')
    .execute();
  for (const s of stats) {
    yield kind === 'user_summary'
      ? [s.applyId, s.appName, s.refDate, s.userSource, s.newUser, s.cancelUser]
      : [s.applyId, s.appName, s.refDate, s.cumulateUser];
  }
}

const chains = new WeakMap<AppContext, Map<string, Promise<unknown>>>();

/** Rebuilds `table` in the source from the stored rows; returns its row count. */
export function rebuildTable(
  ctx: AppContext,
  target: { sourceId: number; table: string; platformId: number; kind: InterfaceKind; comment: string },
): Promise<number> {
  let byTable = chains.get(ctx);
  if (!byTable) chains.set(ctx, (byTable = new Map()));
  const key = `${target.sourceId}:${target.table}`;
  const run = (byTable.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => rebuild(ctx, target));
  byTable.set(key, run);
  return run;
}

async function rebuild(
  ctx: AppContext,
  target: { sourceId: number; table: string; platformId: number; kind: InterfaceKind; comment: string },
): Promise<number> {
  const writer = await getSourceWriter(ctx, target.sourceId);
  const staging = stagingTableName();
  let loaded: number;
  try {
    loaded = (await writer.bulkLoad(staging, COLUMNS[target.kind], rowsOf(ctx, target.platformId, target.kind), { comment: target.comment })).rows;
    await writer.dropTable(target.table);
    await writer.renameTable(staging, target.table);
  } catch (error) {
    await writer.dropTable(staging).catch(() => undefined);
    if (error instanceof ConnectorError) throw new Error(`写入数据表 ${target.table} 失败：${error.message}`, { cause: error });
    throw error;
  }
  return loaded;
}

/** Rebuilds the table of an app's `kind` interface, when its platform has one (after a fan edit). */
export async function rebuildFor(ctx: AppContext, applyId: number, kind: InterfaceKind): Promise<void> {
  const target = await ctx.db
    .selectFrom('cdpApp')
    .innerJoin('cdpPlatform', 'cdpPlatform.id', 'cdpApp.platformId')
    .innerJoin('cdpInterface', 'cdpInterface.platformId', 'cdpPlatform.id')
    .select(['cdpPlatform.id as platformId', 'cdpPlatform.datasourceId', 'cdpInterface.tableName', 'cdpInterface.interfaceName'])
    .where('cdpApp.id', '=', applyId)
    .where('cdpInterface.kind', '=', kind)
    .executeTakeFirst();
  if (!target) return;
  await rebuildTable(ctx, {
    sourceId: await targetSource(ctx, target.datasourceId),
    table: target.tableName,
    platformId: target.platformId,
    kind,
    comment: target.interfaceName,
  });
}
