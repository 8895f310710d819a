import { describe, expect, it } from 'vitest';
import { absolutePeriod, relativePeriod } from './time.ts';

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
