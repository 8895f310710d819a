import { describe, expect, it } from 'vitest';
import { formatDimension, formatMeasure, formatNumber, formatTemporal, isDateOnlyColumn, previewCellText, toNumber } from './format.ts';

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

  it("万 and 亿 divide by 10^4 and 10^8, with the pattern's decimals and separators", () => {
    expect(formatNumber(2783808.3, '0.0万')).toBe('278.4万');
    expect(formatNumber(2783808.3, '0万')).toBe('278万');
    expect(formatNumber(2783808.3, '0.00万元')).toBe('278.38万元');
    expect(formatNumber(123456789012, '#,##0.0万')).toBe('12,345,678.9万');
    expect(formatNumber(1234567890, '0.00亿')).toBe('12.35亿');
    expect(formatNumber(98765432109876, '#,##0.00亿')).toBe('987,654.32亿');
    expect(formatNumber(-2783808.3, '0.0万')).toBe('-278.4万');
    expect(formatNumber(-1234567890, '¥0.00亿')).toBe('-¥12.35亿');
    expect(formatNumber(0, '0.0万')).toBe('0.0万');
    // A small negative that rounds to zero has no minus sign.
    expect(formatNumber(-4, '0.0万')).toBe('0.0万');
    expect(formatNumber(500, '0.##万')).toBe('0.05万');
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

describe('dates and date-times', () => {
  it('writes them as the spec does', () => {
    expect(formatTemporal('2026-09-22T16:25:59', true)).toBe('2026-09-22 16:25:59');
    expect(formatTemporal('2026-09-22T16:25:59.123456', true)).toBe('2026-09-22 16:25:59');
    expect(formatTemporal('2026-01-01T00:00:00', false)).toBe('2026-01-01');
    expect(formatTemporal('2026-01-01', false)).toBe('2026-01-01');
    expect(formatTemporal('2026-01-01', true)).toBe('2026-01-01 00:00:00');
    expect(formatTemporal(null, true)).toBe('');
    expect(formatTemporal('不是日期', true)).toBe('不是日期');
  });

  it('a column is date-only when every value is a date or midnight', () => {
    expect(isDateOnlyColumn(['2026-01-01T00:00:00', '2026-02-01T00:00:00', null])).toBe(true);
    expect(isDateOnlyColumn(['2026-01-01', '2026-02-01'])).toBe(true);
    expect(isDateOnlyColumn(['2026-01-01T00:00:00', '2026-02-01T08:00:00'])).toBe(false);
    expect(isDateOnlyColumn(['2026-01-01T00:00:00.5'])).toBe(false);
  });

  it('a preview column shows one form for all its rows', () => {
    const mixed = ['2026-01-01T00:00:00', '2026-09-22T16:25:59'];
    const text = previewCellText('DATETIME', mixed);
    expect(mixed.map(text)).toEqual(['2026-01-01 00:00:00', '2026-09-22 16:25:59']);
    const dates = previewCellText('DATETIME', ['2026-01-01T00:00:00']);
    expect(dates('2026-01-01T00:00:00')).toBe('2026-01-01');
    expect(previewCellText('STRING', [])('2026-01-01T00:00:00')).toBe('2026-01-01T00:00:00');
    expect(previewCellText('NUMBER', [])(null)).toBe('');
  });
});
