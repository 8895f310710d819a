import type { TimeUnit } from '@shutu/contracts';

/**
 * Time conditions resolve to half-open periods [start, end) of local wall-clock time,
 * written 'YYYY-MM-DD HH:mm:ss'. Absolute values are periods by their precision
 * ('2024' is the year, '2024-03' the month, '2024-03-05' the day); relative values are
 * whole units counted from the unit that contains `now` (weeks start on Monday).
 */
export interface Period {
  start: string;
  end: string;
}

type Precision = 'YEAR' | 'MONTH' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';

const ABSOLUTE = [
  /^(\d{4})$/,
  /^(\d{4})[-/](\d{1,2})$/,
  /^(\d{4})(\d{2})$/,
  /^(\d{4})(\d{2})(\d{2})$/,
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.\d{1,6})?)?)?)?$/,
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Formats a UTC-based calendar instant (local wall clock shifted into UTC fields). */
function format(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function addUnits(ms: number, unit: Precision | TimeUnit, count: number): number {
  const d = new Date(ms);
  const [y, mo, day, h, mi, s] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  switch (unit) {
    case 'YEAR':
      return Date.UTC(y + count, mo, day, h, mi, s);
    case 'QUARTER':
      return Date.UTC(y, mo + 3 * count, day, h, mi, s);
    case 'MONTH':
      return Date.UTC(y, mo + count, day, h, mi, s);
    case 'WEEK':
      return ms + count * 7 * 86_400_000;
    case 'DAY':
      return ms + count * 86_400_000;
    case 'HOUR':
      return ms + count * 3_600_000;
    case 'MINUTE':
      return ms + count * 60_000;
    case 'SECOND':
      return ms + count * 1000;
  }
}

function startOf(ms: number, unit: TimeUnit): number {
  const d = new Date(ms);
  const [y, mo, day, h] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()];
  switch (unit) {
    case 'YEAR':
      return Date.UTC(y, 0, 1);
    case 'QUARTER':
      return Date.UTC(y, mo - (mo % 3), 1);
    case 'MONTH':
      return Date.UTC(y, mo, 1);
    case 'WEEK':
      return Date.UTC(y, mo, day) - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    case 'DAY':
      return Date.UTC(y, mo, day);
    case 'HOUR':
      return Date.UTC(y, mo, day, h);
  }
}

/** The period an absolute value names, or null when the text is not a valid date. */
export function absolutePeriod(value: string): Period | null {
  const text = value.trim();
  for (const [index, re] of ABSOLUTE.entries()) {
    const m = re.exec(text);
    if (!m) continue;
    const n = m.slice(1).map((g) => (g === undefined ? undefined : Number(g)));
    const [y, mo = 1, d = 1, h = 0, mi = 0, s = 0] = n as number[];
    let precision: Precision = index === 0 ? 'YEAR' : index <= 2 ? 'MONTH' : 'DAY';
    if (index === 4) precision = n[5] !== undefined ? 'SECOND' : n[4] !== undefined ? 'MINUTE' : n[3] !== undefined ? 'HOUR' : 'DAY';
    if (y! < 1000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
    const ms = Date.UTC(y!, mo - 1, d, h, mi, s);
    if (new Date(ms).getUTCDate() !== d) return null; // 2024-02-30
    const end = addUnits(ms, precision, 1);
    return { start: format(ms), end: format(end) };
  }
  return null;
}

/**
 * The bucket of `unit` that contains an absolute value: a clicked point of a time-grouped chart
 * ('2026-09-01T00:00:00' by MONTH is September; a week runs from Monday). Null when the value
 * is not a valid date.
 */
export function bucketPeriod(value: string, unit: TimeUnit): Period | null {
  const period = absolutePeriod(value);
  if (!period) return null;
  const start = startOf(Date.parse(`${period.start.replace(' ', 'T')}Z`), unit);
  return { start: format(start), end: format(addUnits(start, unit, 1)) };
}

const DAY_MS = 86_400_000;

/**
 * Upper bounds of the span (last value minus first) for each default granularity, finest first;
 * beyond the last one a chart groups by year. About 2–100 points each (docs/board-chart-config.md).
 */
export const AUTO_GRANULARITY_SPANS: readonly (readonly [TimeUnit, number])[] = [
  ['HOUR', 2 * DAY_MS],
  ['DAY', 100 * DAY_MS],
  ['WEEK', 366 * DAY_MS],
  ['MONTH', 10 * 366 * DAY_MS],
];

/**
 * The granularity a time dimension gets when the user chose none, from the span of its values
 * (first and last, absolute values): hours within two days, days up to about three months,
 * weeks up to a year, months up to ten years, years beyond. No values: DAY.
 */
export function granularityForSpan(first: string | null, last: string | null): TimeUnit {
  const from = first === null ? null : absolutePeriod(first);
  const to = last === null ? null : absolutePeriod(last);
  if (!from || !to) return 'DAY';
  const span = Date.parse(`${to.start.replace(' ', 'T')}Z`) - Date.parse(`${from.start.replace(' ', 'T')}Z`);
  return AUTO_GRANULARITY_SPANS.find(([, max]) => span <= max)?.[0] ?? 'YEAR';
}

/**
 * The unit `offset` units away from the one containing `now` (negative: before).
 * `timeZoneOffsetMinutes` is the wall clock's offset from UTC (China: 480).
 */
export function relativePeriod(now: Date, unit: TimeUnit, offset: number, timeZoneOffsetMinutes: number): Period {
  const local = now.getTime() + timeZoneOffsetMinutes * 60_000;
  const start = addUnits(startOf(local, unit), unit, offset);
  return { start: format(start), end: format(addUnits(start, unit, 1)) };
}

/** From the start of one period to the end of another (the earlier start, the later end). */
export function spanOf(a: Period, b: Period): Period {
  return { start: a.start < b.start ? a.start : b.start, end: a.end > b.end ? a.end : b.end };
}
