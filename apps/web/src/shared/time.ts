import { DEFAULT_TIME_ZONE, canonicalTimeZone, describeTimeZone, formatInZone, timeZoneLabel } from '@shutu/contracts/time-zone';

/**
 * Every instant a user reads is shown on the installation's clock (系统设置 → 时区; docs/decisions.md
 * "Time zone"), never the browser's: a subscription due at 8:00 says 08:00 whether the browser runs
 * in Beijing, Tokyo or UTC. The zone arrives with the public system config (features/system/api.ts
 * sets it before any signed-in page renders); until then, and on pages that never ask, Asia/Shanghai.
 */
let displayTimeZone = DEFAULT_TIME_ZONE;

/** The zone instants are shown in. */
export const getDisplayTimeZone = (): string => displayTimeZone;

/** Set from the server's answer; a name this browser does not know keeps the previous zone. */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  const known = zone ? canonicalTimeZone(zone) : undefined;
  if (known) displayTimeZone = known;
}

type Instant = string | number | Date | null | undefined;

function toDate(instant: Instant): Date | undefined {
  if (instant === null || instant === undefined || instant === '') return undefined;
  const date = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** yyyy-MM-dd HH:mm:ss (or HH:mm) of an ISO instant on the installation's clock; '-' when there is none. */
export function formatDateTime(instant: Instant, precision: 'second' | 'minute' = 'second'): string {
  const date = toDate(instant);
  if (!date) return instant ? String(instant) : '-';
  return formatInZone(displayTimeZone, date, precision);
}

/** yyyy-MM-dd of an ISO instant on the installation's clock. */
export function formatDate(instant: Instant): string {
  const date = toDate(instant);
  if (!date) return instant ? String(instant) : '-';
  return formatInZone(displayTimeZone, date, 'day');
}

/** 北京时间, or the offset (UTC+09:00) in force at that instant: put beside a time that could be misread. */
export function displayTimeZoneLabel(instant?: Instant): string {
  return timeZoneLabel(displayTimeZone, toDate(instant) ?? new Date());
}

/** The zone in words, where a time is picked or set: 北京时间; 东京（Asia/Tokyo，UTC+09:00）. */
export function displayTimeZoneName(now: Date = new Date()): string {
  return displayTimeZone === DEFAULT_TIME_ZONE ? timeZoneLabel(displayTimeZone, now) : describeTimeZone(displayTimeZone, now);
}

/** 2026-11-26 08:00:00（北京时间）: a time with its zone, for times people act on (下次发送). */
export function formatDateTimeLabelled(instant: Instant): string {
  const date = toDate(instant);
  if (!date) return formatDateTime(instant);
  return `${formatDateTime(date)}（${displayTimeZoneLabel(date)}）`;
}

/** Today's date (yyyy-MM-dd) on the installation's clock, for date filters that default to today. */
export const todayInDisplayZone = (now: Date = new Date()): string => formatInZone(displayTimeZone, now, 'day');
