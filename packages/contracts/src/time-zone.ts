/**
 * 系统时区 (系统设置 → 时区; docs/decisions.md "Time zone"): the wall clock subscriptions are
 * scheduled in, relative date filters count in, and every time a user reads is shown in. One
 * IANA zone for the whole installation, default Asia/Shanghai. Plain Intl (full ICU in Node 20
 * and every browser we support), so zones with daylight saving are exact without a tz library.
 */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

export const timeZoneInvalid = (value: string) => `时区名称不正确：${value}（请填写 IANA 时区名称，如 Asia/Shanghai、Asia/Tokyo、America/New_York）`;
export const timeZoneRequired = '请选择时区';

/** What an IANA name looks like (Area/Location, UTC, Etc/GMT+8): offsets such as "+08:00" are refused, they have no daylight-saving rules. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone's proper spelling ('asia/tokyo' → 'Asia/Tokyo'), or undefined when Intl does not know
 * it. A link keeps the name given (Asia/Kolkata stays Asia/Kolkata, though ICU calls it
 * Asia/Calcutta): the administrator picked that name.
 */
export function canonicalTimeZone(name: string): string | undefined {
  const text = name.trim();
  if (!IANA_NAME.test(text) || text.length > 64) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  const lower = text.toLowerCase();
  if (resolved.toLowerCase() === lower) return resolved;
  const known = [...COMMON_TIME_ZONES.map((z) => z.zone), ...Intl.supportedValuesOf('timeZone')];
  return known.find((zone) => zone.toLowerCase() === lower) ?? text;
}

/** Zones most installations pick, in the order the selector offers them (the rest follow, by name). */
export const COMMON_TIME_ZONES: readonly { zone: string; name: string }[] = [
  { zone: 'Asia/Shanghai', name: '北京时间' },
  { zone: 'Asia/Hong_Kong', name: '香港' },
  { zone: 'Asia/Taipei', name: '台北' },
  { zone: 'Asia/Macau', name: '澳门' },
  { zone: 'Asia/Urumqi', name: '乌鲁木齐' },
  { zone: 'Asia/Tokyo', name: '东京' },
  { zone: 'Asia/Seoul', name: '首尔' },
  { zone: 'Asia/Singapore', name: '新加坡' },
  { zone: 'Asia/Bangkok', name: '曼谷' },
  { zone: 'Asia/Kolkata', name: '印度' },
  { zone: 'Asia/Dubai', name: '迪拜' },
  { zone: 'Europe/Moscow', name: '莫斯科' },
  { zone: 'Europe/Berlin', name: '柏林' },
  { zone: 'Europe/Paris', name: '巴黎' },
  { zone: 'Europe/London', name: '伦敦' },
  { zone: 'UTC', name: '协调世界时' },
  { zone: 'America/New_York', name: '纽约' },
  { zone: 'America/Chicago', name: '芝加哥' },
  { zone: 'America/Denver', name: '丹佛' },
  { zone: 'America/Los_Angeles', name: '洛杉矶' },
  { zone: 'America/Sao_Paulo', name: '圣保罗' },
  { zone: 'Australia/Sydney', name: '悉尼' },
  { zone: 'Pacific/Auckland', name: '奥克兰' },
];

/** A wall-clock reading in a zone; month 1–12, weekday 0 = Sunday … 6 = Saturday. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** What a clock in `zone` reads at `instant`. */
export function wallClock(zone: string, instant: Date): WallClock {
  const parts: Record<string, string> = {};
  for (const part of partsFormatter(zone).formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
}

/**
 * Offsets already worked out, by zone and UTC minute: every query with a relative date asks for
 * `now`'s, and formatToParts costs ≈ 0.3 ms a call (issue 26's per-request overhead). Since 1980
 * every zone changes its offset on a whole minute, so one minute has one offset.
 */
const offsets = new Map<string, number>();
const OFFSETS_KEPT = 512;
const WHOLE_MINUTE_TRANSITIONS_SINCE = Date.UTC(1980, 0, 1);

/** The zone's offset from UTC at `instant`, in minutes (Asia/Shanghai: 480; New York: -300 or -240). */
export function zoneOffsetMinutes(zone: string, instant: Date): number {
  const time = instant.getTime();
  if (!(time >= WHOLE_MINUTE_TRANSITIONS_SINCE)) return computeOffsetMinutes(zone, instant);
  const key = `${zone} ${Math.floor(time / 60_000)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = computeOffsetMinutes(zone, instant);
    if (offsets.size >= OFFSETS_KEPT) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function computeOffsetMinutes(zone: string, instant: Date): number {
  const w = wallClock(zone, instant);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  // The wall clock has whole seconds: compare with the instant's whole second.
  const seconds = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((asUtc - seconds) / 60_000);
}

/**
 * The instant a clock in `zone` reads the given wall time (month 1–12; day and month may
 * overflow, Date.UTC normalises them). A time skipped by a daylight-saving jump (02:30 on the
 * spring-forward night) is read with the offset before the jump, landing after it (03:30); a
 * time that happens twice (the fall-back hour) is the first one. This is what Temporal calls
 * "compatible" and what calendars do.
 */
export function instantOfWallClock(zone: string, year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const DAY = 86_400_000;
  const before = zoneOffsetMinutes(zone, new Date(local - DAY)) * 60_000;
  const after = zoneOffsetMinutes(zone, new Date(local + DAY)) * 60_000;
  const fits = [before, after].map((offset) => local - offset).filter((t) => zoneOffsetMinutes(zone, new Date(t)) * 60_000 === local - t);
  if (fits.length > 0) return new Date(Math.min(...fits));
  return new Date(local - before);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** yyyy-MM-dd HH:mm:ss (or HH:mm, or the date alone) of `instant` on the clock of `zone`. */
export function formatInZone(zone: string, instant: Date, precision: 'second' | 'minute' | 'day' = 'second'): string {
  const w = wallClock(zone, instant);
  const date = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
  if (precision === 'day') return date;
  const time = `${pad(w.hour)}:${pad(w.minute)}`;
  return `${date} ${precision === 'second' ? `${time}:${pad(w.second)}` : time}`;
}

/** UTC+09:00, UTC-05:00, UTC+05:30, UTC+00:00. */
export function utcOffsetText(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The label shown beside a time that could be misread: 北京时间 for Asia/Shanghai (what Chinese
 * readers call it); otherwise the offset in force at that instant (daylight saving included).
 */
export function timeZoneLabel(zone: string, instant: Date = new Date()): string {
  return zone === DEFAULT_TIME_ZONE ? '北京时间' : utcOffsetText(zoneOffsetMinutes(zone, instant));
}

/** How the selector and the settings name a zone: 北京时间（Asia/Shanghai，UTC+08:00）, 东京（Asia/Tokyo，UTC+09:00）. */
export function describeTimeZone(zone: string, instant: Date = new Date()): string {
  const common = COMMON_TIME_ZONES.find((z) => z.zone === zone);
  const offset = utcOffsetText(zoneOffsetMinutes(zone, instant));
  return common ? `${common.name}（${zone}，${offset}）` : `${zone}（${offset}）`;
}
