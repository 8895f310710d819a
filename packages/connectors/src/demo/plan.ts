/**
 * Options of the demo warehouse and the sizes and time window derived from them.
 * Everything here is plain calendar arithmetic in UTC, so a plan is the same on every machine.
 */

export interface DemoWarehouseOptions {
  /** Any safe integer; default DEFAULT_SEED. */
  seed?: number;
  /** Number of order rows (the row-count knob); default DEFAULT_SCALE. */
  scale?: number;
  /**
   * Last day of data, 'YYYY-MM-DD'; default DEFAULT_ANCHOR_DATE (a constant, for determinism) —
   * except in ensureDemoWarehouse, where it defaults to the day the warehouse is generated.
   */
  anchorDate?: string;
}

export const DEFAULT_SEED = 20260101;
export const DEFAULT_SCALE = 200_000;
/** Data ends on this day; the window starts on the first day of the month twelve months earlier. */
export const DEFAULT_ANCHOR_DATE = '2026-10-31';
export const MIN_SCALE = 1_000;
export const MAX_SCALE = 500_000_000;
export const MONTHS = 13;

export interface DemoPlan {
  seed: number;
  scale: number;
  anchorDate: string;
  /** First day of the window, 'YYYY-MM-DD' (00:00:00). */
  windowStart: string;
  /** Days in the window, anchor day included. */
  days: number;
  /** The 13 months of the window, oldest first, 'YYYY-MM'. */
  months: string[];
  /** Month index (0..12) of every day of the window. */
  dayMonth: number[];
  users: number;
  /** Click sessions; about 20 clicks each, so clicks ≈ scale / 4. */
  sessions: number;
  /** Users who browse the website (the first `webUsers` user numbers). */
  webUsers: number;
  /** Marketing tasks (a third of each type). */
  tasks: number;
}

const DAY_MS = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** China's offset from UTC: the product's default time zone (Asia/Shanghai, no daylight saving). */
export const SEED_DAY_OFFSET_MINUTES = 480;

/** The calendar day of `now` in China, 'YYYY-MM-DD': where a warehouse generated without an anchor date ends. */
export function seedDay(now: Date, offsetMinutes: number = SEED_DAY_OFFSET_MINUTES): string {
  return iso(now.getTime() + offsetMinutes * 60_000);
}

function parseDate(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || iso(ms) !== text) throw new Error(`anchorDate must be a valid YYYY-MM-DD date, got ${JSON.stringify(text)}`);
  return ms;
}

export function makePlan(options: DemoWarehouseOptions = {}): DemoPlan {
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? DEFAULT_SCALE;
  const anchorDate = options.anchorDate ?? DEFAULT_ANCHOR_DATE;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`seed must be a non-negative safe integer, got ${seed}`);
  if (!Number.isSafeInteger(scale) || scale < MIN_SCALE || scale > MAX_SCALE)
    throw new Error(`scale must be an integer in [${MIN_SCALE}, ${MAX_SCALE}], got ${scale}`);
  const anchorMs = parseDate(anchorDate);
  const anchor = new Date(anchorMs);
  const startMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - (MONTHS - 1), 1);
  const days = Math.round((anchorMs - startMs) / DAY_MS) + 1;
  const months: string[] = [];
  for (let k = 0; k < MONTHS; k++) months.push(iso(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - (MONTHS - 1) + k, 1)).slice(0, 7));
  const dayMonth: number[] = [];
  for (let d = 0; d < days; d++) dayMonth.push(months.indexOf(iso(startMs + d * DAY_MS).slice(0, 7)));
  const users = Math.max(1_000, Math.round(scale / 10));
  const sessions = Math.max(50, Math.ceil(scale / 80));
  return {
    seed,
    scale,
    anchorDate,
    windowStart: iso(startMs),
    days,
    months,
    dayMonth,
    users,
    sessions,
    webUsers: Math.min(users, Math.max(50, Math.round(sessions / 20))),
    tasks: 36,
  };
}
