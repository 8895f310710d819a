import type { ChartDataResult, TimeUnit } from '@shutu/contracts';
import { DATASET_DEFAULTS } from '@shutu/contracts';
import { chartMessages } from './messages.ts';

/**
 * Number formatting of chart values by a field's numberDataFormat (spec 2 §3 field
 * "numberDataFormat"): AUTO (up to two decimals with thousands separators) or an Excel-like
 * pattern: `0`, `0.00`, `#,##0`, `#,##0.00`, `0%`, `0.00%`, with any prefix or suffix
 * (`¥#,##0.00`, `0.0万`). A pattern without digits falls back to AUTO.
 */

/** One value of a result row. */
export type CubeCell = ChartDataResult['dataList'][number][string];

export const AUTO_FORMAT = DATASET_DEFAULTS.numberDataFormat;

const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(grouping: boolean, min: number, max: number): Intl.NumberFormat {
  const key = `${grouping}:${min}:${max}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { useGrouping: grouping, minimumFractionDigits: min, maximumFractionDigits: max });
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
  percent: boolean;
}

const parsed = new Map<string, ParsedFormat | null>();

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
      percent: (prefix + suffix).includes('%'),
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
  const scaled = spec.percent ? value * 100 : value;
  return `${spec.prefix}${numberFormat(spec.grouping, spec.minDecimals, spec.maxDecimals).format(scaled)}${spec.suffix}`;
}

/** A measure cell as text: numbers (and numeric strings) by `format`, NULL as empty, anything else as it is. */
export function formatMeasure(value: CubeCell | undefined, format?: string | null): string {
  if (value === null || value === undefined || value === '') return '';
  const n = toNumber(value);
  return n === null ? String(value) : formatNumber(n, format);
}

/** A dimension cell as text: NULL as (空). */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A dimension value as text. Timestamps read as the truncation they were grouped by
 * (YEAR 2026, QUARTER 2026-Q2, MONTH 2026-05, WEEK / DAY 2026-05-04, HOUR 2026-05-04 13:00);
 * without one, midnight drops its time and the ISO 'T' becomes a space.
 */
export function formatDimension(value: CubeCell | undefined, granularity?: TimeUnit | null): string {
  if (value === null || value === undefined) return chartMessages.emptyValue;
  const text = String(value);
  const m = typeof value === 'string' ? TIMESTAMP.exec(text) : null;
  if (!m) return text;
  const [, y, mo, d, h, mi, sec] = m;
  switch (granularity) {
    case 'YEAR':
      return y!;
    case 'QUARTER':
      return `${y}-Q${Math.ceil(Number(mo) / 3)}`;
    case 'MONTH':
      return `${y}-${mo}`;
    case 'WEEK':
    case 'DAY':
      return `${y}-${mo}-${d}`;
    case 'HOUR':
      return `${y}-${mo}-${d} ${h}:00`;
    default:
      return h === '00' && mi === '00' && sec === '00' ? `${y}-${mo}-${d}` : `${y}-${mo}-${d} ${h}:${mi}:${sec}`;
  }
}
