import {
  DEFAULT_TIME_ZONE,
  canonicalTimeZone,
  timeZoneSettingsSchema,
  zoneOffsetMinutes,
  type TimeZoneSettings,
  type TimeZoneSettingsInput,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { CoherentMemo, publish } from '../../platform/cache/coherent.ts';

/**
 * 时区 (系统设置; docs/decisions.md "Time zone"): the IANA zone subscriptions are scheduled in,
 * relative date filters count in and every time is shown in, one value in sys_config (key
 * timeZone), Asia/Shanghai when unset. Read by every scheduled tick and every query with a
 * relative date, so cached per app context like 公开访问地址: saving replaces the cache at
 * once; every other server process on the same PostgreSQL forgets it through the cache bus ('settings').
 */
const TIME_ZONE_KEY = 'timeZone';
const CACHE_TTL_MS = 60_000;
const cache = new CoherentMemo<string>(['settings'], CACHE_TTL_MS);

/** What other modules do when the zone changes (subscriptions re-align their schedules). */
export type TimeZoneListener = (zone: string, previous: string) => Promise<void>;
const listeners = new WeakMap<AppContext, TimeZoneListener[]>();

async function readStored(ctx: AppContext): Promise<string> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', TIME_ZONE_KEY).executeTakeFirst();
  // A stored name this runtime's ICU no longer knows falls back to the default rather than failing every schedule.
  return (row && canonicalTimeZone(row.value)) || DEFAULT_TIME_ZONE;
}

/** The installation's time zone (IANA name). */
export function serverTimeZone(ctx: AppContext): Promise<string> {
  // A failed read is not kept: the next caller asks again.
  return cache.get(ctx, TIME_ZONE_KEY, () => readStored(ctx));
}

/** The zone's offset from UTC at `now`, in minutes (what relative date filters count with). */
export async function serverTimeZoneOffsetMinutes(ctx: AppContext, now: Date): Promise<number> {
  return zoneOffsetMinutes(await serverTimeZone(ctx), now);
}

/** Called after every change of the zone, in this process (the one that saved it). */
export function onTimeZoneChange(ctx: AppContext, listener: TimeZoneListener): void {
  listeners.set(ctx, [...(listeners.get(ctx) ?? []), listener]);
}

export async function getTimeZoneSettings(ctx: AppContext): Promise<TimeZoneSettings> {
  return { timeZone: await serverTimeZone(ctx) };
}

export async function saveTimeZoneSettings(ctx: AppContext, input: TimeZoneSettingsInput): Promise<TimeZoneSettings> {
  const { timeZone } = timeZoneSettingsSchema.parse(input);
  const previous = await readStored(ctx);
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: TIME_ZONE_KEY, value: timeZone })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: timeZone }))
    .execute();
  publish(ctx, 'settings');
  if (previous !== timeZone) for (const listener of listeners.get(ctx) ?? []) await listener(timeZone, previous);
  return { timeZone };
}
