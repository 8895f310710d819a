import { describe, expect, it } from 'vitest';
import { absolutePeriod, bucketPeriod, granularityForSpan, relativePeriod } from './time.ts';

describe('absolute values name a period by their precision', () => {
  it.each<[string, string, string]>([
    ['2024', '2024-01-01 00:00:00', '2025-01-01 00:00:00'],
    ['2024-2', '2024-02-01 00:00:00', '2024-03-01 00:00:00'],
    ['202412', '2024-12-01 00:00:00', '2025-01-01 00:00:00'],
    ['20240229', '2024-02-29 00:00:00', '2024-03-01 00:00:00'],
    ['2024/12/31', '2024-12-31 00:00:00', '2025-01-01 00:00:00'],
    ['2024-03-05 7', '2024-03-05 07:00:00', '2024-03-05 08:00:00'],
    ['2024-03-05T23:59', '2024-03-05 23:59:00', '2024-03-06 00:00:00'],
    [' 2024-03-05 10:00:59.123 ', '2024-03-05 10:00:59', '2024-03-05 10:01:00'],
  ])('%j', (value, start, end) => {
    expect(absolutePeriod(value)).toEqual({ start, end });
  });

  it.each([
    '',
    'yesterday',
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-01-32',
    '0999-01-01',
    '2024-01-01 24:00',
    '2024-01-01 10:60',
    "2024-01-01' OR '1'='1",
    '2024-01-01Z',
  ])('refuses %j', (value) => {
    expect(absolutePeriod(value)).toBeNull();
  });
});

describe('relative periods count whole units from the one holding now', () => {
  const now = new Date('2024-03-15T10:30:00+08:00'); // Friday
  const at = (unit: Parameters<typeof relativePeriod>[1], offset: number) => relativePeriod(now, unit, offset, 480);
  it.each<[Parameters<typeof relativePeriod>[1], number, string, string]>([
    ['DAY', 0, '2024-03-15 00:00:00', '2024-03-16 00:00:00'],
    ['DAY', -15, '2024-02-29 00:00:00', '2024-03-01 00:00:00'],
    ['WEEK', 0, '2024-03-11 00:00:00', '2024-03-18 00:00:00'],
    ['WEEK', -11, '2023-12-25 00:00:00', '2024-01-01 00:00:00'],
    ['MONTH', -3, '2023-12-01 00:00:00', '2024-01-01 00:00:00'],
    ['MONTH', 10, '2025-01-01 00:00:00', '2025-02-01 00:00:00'],
    ['QUARTER', -1, '2023-10-01 00:00:00', '2024-01-01 00:00:00'],
    ['YEAR', 1, '2025-01-01 00:00:00', '2026-01-01 00:00:00'],
    ['HOUR', -11, '2024-03-14 23:00:00', '2024-03-15 00:00:00'],
  ])('%s %i', (unit, offset, start, end) => {
    expect(at(unit, offset)).toEqual({ start, end });
  });

  it('reads a Sunday as the end of its week and honours the offset', () => {
    const sunday = new Date('2024-03-17T20:00:00Z'); // Monday 04:00 in UTC+8, Sunday in UTC
    expect(relativePeriod(sunday, 'WEEK', 0, 480).start).toBe('2024-03-18 00:00:00');
    expect(relativePeriod(sunday, 'WEEK', 0, 0).start).toBe('2024-03-11 00:00:00');
  });
});

describe('a clicked bucket is the whole unit containing its value', () => {
  it.each<[string, Parameters<typeof bucketPeriod>[1], string, string]>([
    ['2026-09-01T00:00:00', 'MONTH', '2026-09-01 00:00:00', '2026-10-01 00:00:00'],
    ['2026-09-15', 'MONTH', '2026-09-01 00:00:00', '2026-10-01 00:00:00'],
    ['2026-12-01T00:00:00', 'MONTH', '2026-12-01 00:00:00', '2027-01-01 00:00:00'],
    ['2026-09-22T16:25:59', 'DAY', '2026-09-22 00:00:00', '2026-09-23 00:00:00'],
    // 2026-09-21 is a Monday; a Sunday belongs to the week that began six days before.
    ['2026-09-21T00:00:00', 'WEEK', '2026-09-21 00:00:00', '2026-09-28 00:00:00'],
    ['2026-09-27T23:00:00', 'WEEK', '2026-09-21 00:00:00', '2026-09-28 00:00:00'],
    ['2025-12-29T00:00:00', 'WEEK', '2025-12-29 00:00:00', '2026-01-05 00:00:00'],
    ['2026-10-01T00:00:00', 'QUARTER', '2026-10-01 00:00:00', '2027-01-01 00:00:00'],
    ['2026-08-31T00:00:00', 'QUARTER', '2026-07-01 00:00:00', '2026-10-01 00:00:00'],
    ['2026-01-01T00:00:00', 'YEAR', '2026-01-01 00:00:00', '2027-01-01 00:00:00'],
    ['2026-09-22T16:00:00', 'HOUR', '2026-09-22 16:00:00', '2026-09-22 17:00:00'],
  ])('%s by %s', (value, unit, start, end) => {
    expect(bucketPeriod(value, unit)).toEqual({ start, end });
  });

  it('refuses a value that is not a date', () => {
    expect(bucketPeriod('2026-02-30T00:00:00', 'MONTH')).toBeNull();
    expect(bucketPeriod('九月', 'MONTH')).toBeNull();
  });
});

describe('the default granularity follows the span of the data', () => {
  it.each<[string | null, string | null, string]>([
    ['2026-09-22T08:00:00', '2026-09-23T20:00:00', 'HOUR'],
    ['2026-07-01T00:00:00', '2026-09-30T23:59:59', 'DAY'],
    ['2026-03-01T00:00:00', '2026-09-30T23:59:59', 'WEEK'],
    ['2025-10-01T00:00:00', '2026-10-31T23:59:59', 'MONTH'],
    ['2023-01-01T00:00:00', '2025-12-31T00:00:00', 'MONTH'],
    ['2001-01-01', '2026-12-31', 'YEAR'],
    ['2026-09-22T08:00:00', '2026-09-22T08:00:00', 'HOUR'],
    [null, null, 'DAY'],
  ])('%s … %s → %s', (first, last, unit) => {
    expect(granularityForSpan(first, last)).toBe(unit);
  });
});
