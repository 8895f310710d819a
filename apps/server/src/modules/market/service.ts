import {
  MARKET_RETENTION_MONTHS,
  MARKET_TASK_TYPES,
  marketMessages,
  type MarketDailyRow,
  type MarketFunnelRow,
  type MarketKeepRow,
  type MarketTask,
} from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { findBuiltinRow } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql } from '../read/index.ts';

/**
 * Marketing task statistics (spec 3 §2, §7; docs/order-export.md "Marketing task statistics"):
 * the demo warehouse's marketing_tasks and their daily/monthly tables, read through the read
 * module as the caller (a non-administrator needs grants of those tables). Every value is bound.
 */

const TIMEOUT_MS = 30_000;
const MAX_ROWS = 10_000;

async function read(ctx: AppContext, caller: Caller, build: (p: (v: string | number) => string) => string): Promise<Row[]> {
  const source = await findBuiltinRow(ctx.db);
  if (!source) throw new AppError(404, marketMessages.taskNotFound);
  const result = await readBoundSql(
    ctx,
    caller,
    source.id,
    (dialect) => {
      const params: (string | number)[] = [];
      const sql = build((v) => {
        params.push(v);
        return dialect.placeholder(params.length);
      });
      return { sql, params };
    },
    { max: MAX_ROWS, timeoutMs: TIMEOUT_MS, field: 'task_id' },
  );
  return result.rows;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const instant = (v: unknown) => (v instanceof Date ? v.toISOString() : text(v).replace(' ', 'T'));

const TASK_COLUMNS = 'task_id, mission_name, task_type, task_type_name, channel_id, channel_name, target_group_number, add_time, push_time';
const toTask = (r: Row): MarketTask => ({
  taskId: text(r.task_id),
  missionName: text(r.mission_name),
  taskType: num(r.task_type),
  taskTypeName: text(r.task_type_name) || MARKET_TASK_TYPES[num(r.task_type) as 1 | 2 | 3],
  channelId: text(r.channel_id),
  channelName: text(r.channel_name),
  targetGroupNumber: num(r.target_group_number),
  addTime: instant(r.add_time),
  pushTime: instant(r.push_time),
});

export async function listTasks(ctx: AppContext, caller: Caller, q: { current: number; size: number; missionName?: string; taskType?: number }) {
  const where = (p: (v: string | number) => string) => {
    const parts: string[] = [];
    if (q.missionName) parts.push(`mission_name LIKE ${p(`%${q.missionName}%`)}`);
    if (q.taskType) parts.push(`task_type = ${p(q.taskType)}`);
    return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
  };
  const [count] = await read(ctx, caller, (p) => `SELECT COUNT(*) AS n FROM marketing_tasks${where(p)}`);
  const rows = await read(ctx, caller, (p) => {
    const w = where(p);
    return `SELECT ${TASK_COLUMNS} FROM marketing_tasks${w} ORDER BY push_time DESC, task_id LIMIT ${p(q.size)} OFFSET ${p((q.current - 1) * q.size)}`;
  });
  return { records: rows.map(toTask), total: num(count?.n), current: q.current, size: q.size };
}

export async function findMarketTask(ctx: AppContext, caller: Caller, taskId: string): Promise<MarketTask> {
  const [row] = await read(ctx, caller, (p) => `SELECT ${TASK_COLUMNS} FROM marketing_tasks WHERE task_id = ${p(taskId)}`);
  if (!row) throw notFound(marketMessages.taskNotFound);
  return toTask(row);
}

/** Member-activate-task / Member-receive-task: the daily rows of a type-1 or type-3 task. */
export async function dailyRows(
  ctx: AppContext,
  caller: Caller,
  kind: 'activate' | 'receive',
  q: { task_id: string; start: string; end: string },
): Promise<MarketDailyRow[]> {
  const [table, columns] =
    kind === 'activate' ? ['task_activation_daily', 'activate_num, activate_num_rate'] : ['task_receive_daily', 'receives_num, receive_num_rate'];
  const rows = await read(
    ctx,
    caller,
    (p) =>
      `SELECT dt, total_send_message, ${columns}, cancels_num, cancel_num_rate FROM ${table} WHERE task_id = ${p(q.task_id)} AND dt BETWEEN ${p(q.start)} AND ${p(q.end)} ORDER BY dt`,
  );
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'dt' ? text(v) : num(v)])) as MarketDailyRow);
}

/** marketing-task-chart: the funnel by day of a type-2 task (and channel). */
export async function funnelRows(
  ctx: AppContext,
  caller: Caller,
  q: { task_id: string; channel?: string; start: string; end: string },
): Promise<MarketFunnelRow[]> {
  const rows = await read(ctx, caller, (p) => {
    const channel = q.channel ? ` AND channel_id = ${p(q.channel)}` : '';
    return `SELECT dt, SUM(product_views) AS v, SUM(unified_auth) AS a, SUM(order_attempts) AS o, SUM(order_success) AS s FROM task_funnel_daily
      WHERE task_id = ${p(q.task_id)}${channel} AND dt BETWEEN ${p(q.start)} AND ${p(q.end)} GROUP BY dt ORDER BY dt`;
  });
  return rows.map((r) => ({ dt: text(r.dt), productViews: num(r.v), unifiedAuth: num(r.a), orderAttempts: num(r.o), orderSuccess: num(r.s) }));
}

/** marketing-task-keep: per order month, its ordering users and those retained in month 1 … 24. */
export async function keepRows(
  ctx: AppContext,
  caller: Caller,
  q: { task_id: string; channel?: string; start: string; end: string },
): Promise<MarketKeepRow[]> {
  const rows = await read(ctx, caller, (p) => {
    const channel = q.channel ? ` AND channel_id = ${p(q.channel)}` : '';
    return `SELECT month, order_users, month_offset, retained_users FROM task_retention_monthly
      WHERE task_id = ${p(q.task_id)}${channel} AND month BETWEEN ${p(q.start)} AND ${p(q.end)} ORDER BY month, month_offset`;
  });
  const byMonth = new Map<string, MarketKeepRow>();
  for (const r of rows) {
    const month = text(r.month);
    let row = byMonth.get(month);
    if (!row) byMonth.set(month, (row = { month, orderUsers: num(r.order_users), retained: Array.from({ length: MARKET_RETENTION_MONTHS }, () => null) }));
    const offset = num(r.month_offset);
    if (offset >= 1 && offset <= MARKET_RETENTION_MONTHS) row.retained[offset - 1] = num(r.retained_users);
  }
  return [...byMonth.values()];
}
