import { describe, expect, it } from 'vitest';
import { formatDimension, formatMeasure, formatNumber, toNumber } from './format.ts';

describe('formatNumber', () => {
  it('AUTO: up to two decimals with thousands separators', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, 'AUTO')).toBe('1,234,567.89');
    expect(formatNumber(12, '')).toBe('12');
    expect(formatNumber(0.5)).toBe('0.5');
    expect(formatNumber(-9876.5)).toBe('-9,876.5');
  });

  it('built-in patterns', () => {
    expect(formatNumber(1234.567, '0')).toBe('1235');
    expect(formatNumber(1234.5, '0.00')).toBe('1234.50');
    expect(formatNumber(1234.5, '#,##0')).toBe('1,235');
    expect(formatNumber(1234.567, '#,##0.00')).toBe('1,234.57');
    expect(formatNumber(0.1234, '0%')).toBe('12%');
    expect(formatNumber(0.12345, '0.00%')).toBe('12.35%');
  });

  it('prefix, suffix and optional decimals', () => {
    expect(formatNumber(1234.5, '¥#,##0.00')).toBe('¥1,234.50');
    expect(formatNumber(3.5, '0.0元')).toBe('3.5元');
    expect(formatNumber(3, '0.##')).toBe('3');
    expect(formatNumber(3.14159, '0.##')).toBe('3.14');
  });

  it('a pattern without digits falls back to AUTO', () => {
    expect(formatNumber(1234.567, 'abc')).toBe('1,234.57');
  });
});

describe('cells', () => {
  it('numeric strings are numbers', () => {
    expect(toNumber('12.50')).toBe(12.5);
    expect(toNumber('-3')).toBe(-3);
    expect(toNumber('1e3')).toBe(1000);
    expect(toNumber('abc')).toBeNull();
    expect(toNumber('')).toBeNull();
    expect(toNumber(null)).toBeNull();
    expect(toNumber(true)).toBeNull();
  });

  it('measures and dimensions as text', () => {
    expect(formatMeasure('1234.5', '#,##0.00')).toBe('1,234.50');
    expect(formatMeasure(null)).toBe('');
    expect(formatMeasure('n/a')).toBe('n/a');
    expect(formatDimension(null)).toBe('(空)');
    expect(formatDimension(2024)).toBe('2024');
  });

  it('shows a timestamp as the truncation it was grouped by', () => {
    expect(formatDimension('2026-05-04T00:00:00', 'MONTH')).toBe('2026-05');
    expect(formatDimension('2026-05-04T00:00:00', 'YEAR')).toBe('2026');
    expect(formatDimension('2026-05-04T00:00:00', 'QUARTER')).toBe('2026-Q2');
    expect(formatDimension('2026-05-04 13:00:00', 'HOUR')).toBe('2026-05-04 13:00');
    expect(formatDimension('2026-05-04T00:00:00.000Z', 'DAY')).toBe('2026-05-04');
    // Without a granularity: midnight drops its time; other times keep it, without the ISO 'T'.
    expect(formatDimension('2026-05-04T00:00:00')).toBe('2026-05-04');
    expect(formatDimension('2026-05-04T08:30:05')).toBe('2026-05-04 08:30:05');
    expect(formatDimension('浙江', 'MONTH')).toBe('浙江');
  });
});
