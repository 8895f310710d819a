import type { ChartDataResult, TimeUnit } from '@shutu/contracts';
import { DATASET_DEFAULTS } from '@shutu/contracts/constants';
import { dimensionText } from '@shutu/contracts/pivot-layout';

/**
 * Number formatting of chart values by a field's numberDataFormat (spec 2 §3 field
 * "numberDataFormat"): AUTO (up to two decimals with thousands separators) or an Excel-like
 * pattern: `0`, `0.00`, `#,##0`, `#,##0.00`, `0%`, `0.00%`, with any prefix or suffix
 * (`¥#,##0.00`, `0.0元`). A suffix or prefix with 万 or 亿 divides by 10^4 or 10^8 first, as a
 * Chinese reader reads it (`0.0万`: 2,783,808.3 → 278.4万); % multiplies by 100. A pattern
 * without digits falls back to AUTO.
 */

/** One value of a result row. */
export type CubeCell = ChartDataResult['dataList'][number][string];

export const AUTO_FORMAT = DATASET_DEFAULTS.numberDataFormat;

const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(grouping: boolean, min: number, max: number): Intl.NumberFormat {
  const key = `${grouping}:${min}:${max}`;
  let f = formatters.get(key);
  if (!f) {
    // signDisplay 'negative': a small negative that rounds to zero reads 0, not -0.
    f = new Intl.NumberFormat('en-US', { useGrouping: grouping, minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: 'negative' });
    formatters.set(key, f);
  }
  return f;
}

interface ParsedFormat {
  prefix: string;
  suffix: string;
  grouping: boolean;
  minDecimals: number;
  maxDecimals: number;
  /** What the value is multiplied by before it is printed: 100 for %, 10^-4 for 万, 10^-8 for 亿. */
  scale: number;
}

const parsed = new Map<string, ParsedFormat | null>();

/** The scale a pattern's unit text implies (亿 before 万: 万亿 is 10^12, rare enough to read as 亿). */
function unitScale(unitText: string): number {
  if (unitText.includes('%')) return 100;
  if (unitText.includes('亿')) return 1e-8;
  if (unitText.includes('万')) return 1e-4;
  return 1;
}

function parseFormat(format: string): ParsedFormat | null {
  if (parsed.has(format)) return parsed.get(format)!;
  let result: ParsedFormat | null = null;
  const m = /^([^#0]*?)([#0,]*[#0])(?:\.([0#]+))?(.*)$/.exec(format);
  if (m) {
    const [, prefix = '', core = '', decimals = '', suffix = ''] = m;
    const zeros = decimals.replace(/#/g, '').length;
    result = {
      prefix,
      suffix,
      grouping: core.includes(','),
      minDecimals: zeros,
      maxDecimals: Math.min(decimals.length, 20),
      scale: unitScale(prefix + suffix),
    };
  }
  parsed.set(format, result);
  return result;
}

/** A cell as a number: numbers, and numeric strings (decimals some connectors return as text); otherwise null. */
export function toNumber(value: CubeCell | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Formats a number by `format` (AUTO when absent or blank). */
export function formatNumber(value: number, format?: string | null): string {
  const spec = format && format.trim() !== '' && format !== AUTO_FORMAT ? parseFormat(format.trim()) : null;
  if (!spec) return numberFormat(true, 0, 2).format(value);
  // Divide rather than multiply by 10^-n: 2783808.3 / 1e4 is exact where * 1e-4 is not.
  const scaled = spec.scale >= 1 ? value * spec.scale : value / Math.round(1 / spec.scale);
  const text = numberFormat(spec.grouping, spec.minDecimals, spec.maxDecimals).format(scaled);
  // The sign goes before a prefix: -¥12.35亿, not ¥-12.35亿.
  return text.startsWith('-') ? `-${spec.prefix}${text.slice(1)}${spec.suffix}` : `${spec.prefix}${text}${spec.suffix}`;
}

/** A measure cell as text: numbers (and numeric strings) by `format`, NULL as empty, anything else as it is. */
export function formatMeasure(value: CubeCell | undefined, format?: string | null): string {
  if (value === null || value === undefined || value === '') return '';
  const n = toNumber(value);
  return n === null ? String(value) : formatNumber(n, format);
}

/**
 * A dimension value as text: the rule the export writes too (@shutu/contracts dimensionText).
 * Timestamps read as the truncation they were grouped by (YEAR 2026, QUARTER 2026-Q2, MONTH
 * 2026-05, WEEK / DAY 2026-05-04, HOUR 2026-05-04 13:00); without one, midnight drops its time
 * and the ISO 'T' becomes a space; NULL reads (空).
 */
export function formatDimension(value: CubeCell | undefined, granularity?: TimeUnit | null): string {
  return dimensionText(value, granularity);
}

/** The connectors' normal form of dates and timestamps (docs/warehouse.md "Dates and times"). */
const TEMPORAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A date or timestamp as the spec writes them: yyyy-MM-dd, or yyyy-MM-dd HH:mm:ss when
 * `withTime` (fractions of a second dropped); anything that is not one, as it is; NULL as empty.
 */
export function formatTemporal(value: CubeCell | undefined, withTime: boolean): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const m = typeof value === 'string' ? TEMPORAL.exec(text) : null;
  if (!m) return text;
  const [, y, mo, d, h = '00', mi = '00', sec = '00'] = m;
  return withTime ? `${y}-${mo}-${d} ${h}:${mi}:${sec}` : `${y}-${mo}-${d}`;
}

/**
 * Whether a column of dates and timestamps reads as dates: every value is a date, or a
 * timestamp at midnight (a date kept as a timestamp, as file tables and some drivers do).
 * One real time of day shows the time on every row, so a column never mixes both forms.
 */
export function isDateOnlyColumn(values: Iterable<CubeCell | undefined>): boolean {
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const m = TEMPORAL.exec(value);
    if (m && m[4] !== undefined && `${m[4]}${m[5]}${m[6] ?? '00'}` !== '000000') return false;
    if (m && /\.\d*[1-9]/.test(value)) return false;
  }
  return true;
}

/**
 * How a raw preview (dataset editor, SQL view) shows one column: DATETIME columns as dates or
 * date-times (decided over `values`, see isDateOnlyColumn), anything else as it is; NULL empty.
 */
export function previewCellText(viewDataType: string, values: Iterable<CubeCell | undefined>): (value: CubeCell | undefined) => string {
  if (viewDataType === 'DATETIME') {
    const withTime = !isDateOnlyColumn(values);
    return (value) => formatTemporal(value, withTime);
  }
  return (value) => (value === null || value === undefined ? '' : String(value));
}
