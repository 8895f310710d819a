import type { ViewDataType } from '@shutu/contracts';
import type { Value } from './types.ts';

/**
 * One normal form for values from every engine, so the same query gives identical rows:
 *   integers     JS numbers while safe (|n| ≤ 2^53 − 1), otherwise their decimal text
 *   decimals     JS numbers (the nearest double)
 *   floats       JS numbers rounded to 15 significant digits (DBL_DIG: how PostgreSQL printed
 *                them before 12, how Excel shows them), so the last-bit noise that differs
 *                between engines (summation order, ROUND by multiply-divide) is dropped;
 *                integral values are kept as they are; NaN / ±Infinity as text
 *   dates        'YYYY-MM-DD'
 *   timestamps   'YYYY-MM-DDTHH:mm:ss' wall clock, with '.ffffff' only when non-zero (trailing
 *                zeros dropped); with a time zone (PostgreSQL timestamptz, DuckDB TIMESTAMPTZ):
 *                the UTC instant with 'Z'
 *   times        'HH:mm:ss[.ffffff]'
 *   booleans     true / false
 *   binary       base64 text; nested values (lists, structs, JSON) as JSON text
 */
export type ValueKind = 'int' | 'decimal' | 'float' | 'bool' | 'date' | 'timestamp' | 'timestamptz' | 'time' | 'string' | 'json' | 'binary';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function intValue(raw: string | number | bigint): Value {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : floatValue(raw);
  const big = typeof raw === 'bigint' ? raw : parseBigInt(raw);
  if (big === null) return decimalValue(String(raw));
  return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big.toString();
}

function parseBigInt(text: string): bigint | null {
  const t = text.trim();
  return /^[+-]?\d+$/.test(t) ? BigInt(t) : null;
}

export function decimalValue(raw: string | number): Value {
  if (typeof raw === 'number') return floatValue(raw);
  const n = Number(raw.trim());
  return Number.isNaN(n) && !/^[+-]?nan$/i.test(raw.trim()) ? raw : floatValue(n);
}

export function floatValue(raw: string | number): Value {
  const n = typeof raw === 'number' ? raw : parseFloatText(raw);
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return Object.is(n, -0) ? 0 : n;
}

function parseFloatText(text: string): number {
  const t = text.trim().toLowerCase();
  if (t === 'inf' || t === '+inf' || t === 'infinity' || t === '+infinity') return Infinity;
  if (t === '-inf' || t === '-infinity') return -Infinity;
  return Number(t);
}

export function boolValue(raw: string | number | boolean | bigint): Value {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number' || typeof raw === 'bigint') return raw !== 0 && raw !== 0n;
  return /^(t|true|1|yes|on)$/i.test(raw.trim());
}

const DATE_TIME = /^(-?\d{4,})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?(?:\s*BC)?$/i;

function fraction(digits: string | undefined): string {
  const f = (digits ?? '').slice(0, 6).replace(/0+$/, '');
  return f ? `.${f}` : '';
}

/** A zero date (MySQL '0000-00-00') reads as NULL. */
const isZeroDate = (y: string, m: string, d: string) => Number(y) === 0 && m === '00' && d === '00';

export function dateValue(raw: string): Value {
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return raw;
  if (isZeroDate(m[1]!, m[2]!, m[3]!)) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** A timestamp without time zone: the wall-clock reading, ISO spelled. */
export function timestampValue(raw: string): Value {
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return raw;
  if (isZeroDate(m[1]!, m[2]!, m[3]!)) return null;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${fraction(m[7])}`;
}

/** A timestamp with a zone offset: the instant in UTC with 'Z'. */
export function timestampTzValue(raw: string): Value {
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return raw;
  if (isZeroDate(m[1]!, m[2]!, m[3]!)) return null;
  const digits = (m[8] ?? 'Z').slice(1).replace(/:/g, '');
  const sign = m[8]?.startsWith('-') ? -1 : 1;
  const offsetSeconds = sign * (Number(digits.slice(0, 2) || 0) * 3600 + Number(digits.slice(2, 4) || 0) * 60 + Number(digits.slice(4, 6) || 0));
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  if (!Number.isFinite(wall)) return raw;
  const utc = new Date(wall - offsetSeconds * 1000).toISOString().slice(0, 19);
  return `${utc}${fraction(m[7])}Z`;
}

export function timeValue(raw: string): Value {
  const m = /^(-?\d+):(\d{2})(?::(\d{2})(?:\.(\d+))?)?/.exec(raw.trim());
  if (!m) return raw;
  return `${m[1]!.padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}${fraction(m[4])}`;
}

/** Normalises one raw value of a column of the given kind. */
export function normalise(kind: ValueKind, raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return null;
    return kind === 'date' ? raw.toISOString().slice(0, 10) : (timestampValue(raw.toISOString().slice(0, 23)) as string);
  }
  if (raw instanceof Uint8Array) return kind === 'string' ? Buffer.from(raw).toString('utf8') : Buffer.from(raw).toString('base64');
  if (typeof raw === 'object') return JSON.stringify(raw, (_k, v: unknown) => (typeof v === 'bigint' ? intValue(v) : v));
  const value = raw as string | number | bigint | boolean;
  switch (kind) {
    case 'int':
      return typeof value === 'boolean' ? Number(value) : intValue(value);
    case 'decimal':
      return typeof value === 'bigint' ? intValue(value) : typeof value === 'boolean' ? Number(value) : decimalValue(value);
    case 'float': {
      if (typeof value === 'bigint') return intValue(value);
      const n = typeof value === 'boolean' ? Number(value) : floatValue(value);
      return typeof n === 'number' && !Number.isInteger(n) ? Number(n.toPrecision(15)) : n;
    }
    case 'bool':
      return boolValue(value);
    case 'date':
      return dateValue(String(value));
    case 'timestamp':
      return timestampValue(String(value));
    case 'timestamptz':
      return timestampTzValue(String(value));
    case 'time':
      return timeValue(String(value));
    case 'json':
    case 'string':
    case 'binary':
      return typeof value === 'bigint' ? value.toString() : typeof value === 'string' ? value : String(value);
  }
}

/** ClickHouse's `Nullable(T)` / `LowCardinality(T)` → `T`. */
export function unwrapType(databaseType: string): string {
  let t = databaseType.trim();
  for (let m = /^(?:Nullable|LowCardinality)\((.*)\)$/i.exec(t); m; m = /^(?:Nullable|LowCardinality)\((.*)\)$/i.exec(t)) t = m[1]!.trim();
  return t;
}

const NUMBER_TYPE =
  /^(tinyint|smallint|mediumint|int|integer|bigint|hugeint|uhugeint|utinyint|usmallint|uinteger|ubigint|u?int\d+|serial\d?|bigserial|smallserial|decimal\d*|numeric|number|dec|fixed|real|float\d*|double|money|year|oid)\b/;
const DATETIME_TYPE = /^(date|date32|datetime|datetime64|timestamp|timestamp_[a-z]+|timestamptz|smalldatetime)\b/;

/** The engine-neutral kind of a column, from the engine's type name (any of the four spellings). */
export function kindOfType(databaseType: string): ValueKind {
  const t = unwrapType(databaseType).toLowerCase();
  if (t.endsWith('[]') || /^(array|map|tuple|nested|struct|list|union)\b/.test(t)) return 'json';
  if (/^(json|jsonb)\b/.test(t)) return 'json';
  if (/^(bool|boolean)\b/.test(t)) return 'bool';
  if (/^(timestamp( \(\d\))? with time zone|timestamptz|timestamp_tz)\b/.test(t)) return 'timestamptz';
  if (/^(date|date32)$/.test(t)) return 'date';
  if (DATETIME_TYPE.test(t)) return 'timestamp';
  if (/^time\b/.test(t)) return 'time';
  if (/^(decimal\d*|numeric|dec|fixed|number|money)\b/.test(t)) return 'decimal';
  if (/^(real|float\d*|double)\b/.test(t)) return 'float';
  if (NUMBER_TYPE.test(t)) return 'int';
  if (/^(blob|bytea|binary|varbinary|tinyblob|mediumblob|longblob|bit)\b/.test(t)) return 'binary';
  return 'string';
}

/** The view data type a column is offered as: NUMBER, DATETIME or STRING. */
export function viewDataTypeOf(databaseType: string): ViewDataType {
  const kind = kindOfType(databaseType);
  if (kind === 'int' || kind === 'decimal' || kind === 'float') return 'NUMBER';
  if (kind === 'date' || kind === 'timestamp' || kind === 'timestamptz') return 'DATETIME';
  return 'STRING';
}

/** Unique keys for result columns: a repeated name gets `_2`, `_3`, … */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let key = name;
    for (let i = 2; seen.has(key); i++) key = `${name}_${i}`;
    seen.add(key);
    return key;
  });
}
