/**
 * SQL expression builders shared by the table generators. A user is a number u in [0, users);
 * every user attribute is a pure function of (seed, u), so orders, usage, tags and clicks
 * recompute the attributes they need instead of joining the users table: no join, no
 * reordering, and the same value everywhere.
 */
import { PHONE_PREFIXES, PROVINCES } from './data.ts';
import { AGE_BAND_MAX, TAG_GROUPS } from './data-cdp.ts';
import { SqlRandom, list, slots } from './hash.ts';
import type { DemoPlan } from './plan.ts';

/** Monthly flow (MB) range of each 月流量使用 band, same order as its tags. */
export const FLOW_BANDS_MB: readonly (readonly [number, number])[] = [
  [100, 500],
  [500, 2000],
  [2000, 5000],
  [5000, 10000],
  [10000, 20000],
  [20000, 40000],
];

export const PROVINCE_NAMES = list(PROVINCES.map((p) => p.name));
const PROVINCE_SLOTS = slots(PROVINCES.map((p) => p.weight));
const AREA_OFFSETS: number[] = [];
export const AREA_LIST: { code: string; name: string; province: number }[] = [];
PROVINCES.forEach((p, pi) => {
  AREA_OFFSETS.push(AREA_LIST.length);
  p.areas.forEach((name, k) => AREA_LIST.push({ code: `${p.code.slice(0, 2)}${String(k + 1).padStart(2, '0')}00`, name, province: pi }));
});
export const AREA_NAMES = list(AREA_LIST.map((a) => a.name));
const FLOW_GROUP = TAG_GROUPS.find((g) => g.level2 === '月流量使用');
const FLOW_SLOTS = slots((FLOW_GROUP?.tags ?? []).map((t) => t.weight));

/** Hour-of-day weights of human activity (orders, clicks). */
export const HOUR_SLOTS = slots([2, 1, 1, 1, 1, 2, 4, 8, 14, 18, 20, 20, 16, 16, 18, 18, 17, 16, 18, 22, 24, 22, 14, 6]);

export class Gen {
  readonly rng: SqlRandom;
  readonly dayMonth: string;
  readonly months: string;

  constructor(readonly plan: DemoPlan) {
    this.rng = new SqlRandom(plan.seed);
    this.dayMonth = list(plan.dayMonth);
    this.months = list(plan.months);
  }

  /**
   * Row numbers 0..n-1 as a subquery with column `name`. They come from the temp table _dw_seq
   * (see generate.ts) rather than range(): range() is a single-threaded source, a table scan is
   * parallel, and DuckDB keeps the scan's order on insert.
   */
  rows(n: number, name: string): string {
    return `(SELECT i AS ${name} FROM _dw_seq WHERE i < ${n})`;
  }

  /** Rows _dw_seq must hold. */
  get seqSize(): number {
    const p = this.plan;
    return Math.max(p.scale, p.users, p.sessions);
  }

  /** A TIMESTAMP `seconds` after the start of the window. */
  ts(seconds: string): string {
    return `make_timestamp(${Date.parse(`${this.plan.windowStart}T00:00:00Z`) * 1000} + (${seconds})::BIGINT * 1000000)`;
  }

  /** Seconds into a day: a weighted hour plus a uniform second. */
  daySeconds(i: string, stream: string): string {
    return `(${this.weighted(i, `${stream}.hour`, HOUR_SLOTS)} * 3600 + ${this.rng.int(i, `${stream}.sec`, 3600)})`;
  }

  /** Weighted pick from an index-slot list: returns the chosen index (BIGINT). */
  weighted(i: string, stream: string, slotList: readonly number[]): string {
    return this.rng.pick(i, stream, list(slotList), slotList.length);
  }

  /** Province index; users 0..30 cover every province once, the rest follow the weights. */
  province(u: string): string {
    return `(CASE WHEN ${u} < ${PROVINCES.length} THEN ${u} ELSE ${this.weighted(u, 'user.province', PROVINCE_SLOTS)} END)`;
  }

  /** Global area index within province index `p`. */
  area(u: string, p: string): string {
    const counts = list(PROVINCES.map((x) => x.areas.length));
    return `(${list(AREA_OFFSETS)}[${p} + 1] + ${this.rng.int(u, 'user.area', `${counts}[${p} + 1]`)})`;
  }

  /** 11-digit phone: a 13x/15x/18x prefix and an 8-digit suffix that is a bijection of u (so phones are unique). */
  phone(u: string): string {
    const offset = this.rng.base('user.phone') % 100_000_000;
    const prefix = this.rng.pick(u, 'user.prefix', list(PHONE_PREFIXES.map(Number)), PHONE_PREFIXES.length);
    return `(${prefix}::BIGINT * 100000000 + (${u} * 73939133 + ${offset}) % 100000000)::VARCHAR`;
  }

  /** 16 hex digits; the first 8 are a bijection of u (odd multiplier mod 2^32), so ids are unique. */
  shenceId(u: string): string {
    return `printf('%08x%08x', (${u} * 2654435761 + ${this.rng.base('user.sid')}) % 4294967296, ${this.rng.hash(u, 'user.sid2')} % 4294967296)`;
  }

  /** Register day relative to the window start: 18% inside the window (never on the anchor day), the rest up to 10 years before. */
  regDay(u: string): string {
    const r = this.rng;
    return `(CASE WHEN ${r.chance(u, 'user.reg.in', 18)} THEN ${r.int(u, 'user.reg.day', this.plan.days - 1)} ELSE -1 - ${r.int(u, 'user.reg.old', 3650)} END)`;
  }

  /** Register time as seconds from the window start (may be negative). */
  regSeconds(u: string): string {
    return `(${this.regDay(u)} * 86400 + ${this.rng.int(u, 'user.reg.sec', 86400)})`;
  }

  /** Month index (0..12) of the register day, 0 when registered before the window. */
  regMonth(regDay: string): string {
    return `(CASE WHEN ${regDay} >= 0 THEN ${this.dayMonth}[${regDay} + 1] ELSE 0 END)`;
  }

  male(u: string): string {
    return this.rng.chance(u, 'user.gender', 53);
  }

  /** Age 16..~78, mean about 39. */
  age(u: string): string {
    const r = this.rng;
    return `(16 + ${r.int(u, 'user.age.a', 12)} + ${r.int(u, 'user.age.b', 12)} + (${r.int(u, 'user.age.c', 50)} * ${r.int(u, 'user.age.d', 50)}) // 50)`;
  }

  ageBand(age: string): string {
    return `(CASE ${AGE_BAND_MAX.map((max, k) => `WHEN ${age} <= ${max} THEN ${k}`).join(' ')} ELSE ${AGE_BAND_MAX.length} END)`;
  }

  is5g(u: string): string {
    return this.rng.chance(u, 'user.net', 62);
  }

  /** The user's habitual monthly-flow band (index into FLOW_BANDS_MB and the 月流量使用 tags). */
  flowBand(u: string): string {
    return this.weighted(u, 'user.flow', FLOW_SLOTS);
  }
}
