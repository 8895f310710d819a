import { describe, expect, it } from 'vitest';
import { serialDate, serialDates } from './sheet-cells.ts';

describe('workbook date serials', () => {
  it('reads days and times to the nearest second, in both date systems', () => {
    const text = (serial: number, date1904 = false) => serialDate(serial, date1904)?.text;
    expect(text(45356)).toBe('2024-03-05 00:00:00');
    expect(text(45356.5)).toBe('2024-03-05 12:00:00');
    expect(text(45356 + 86399.4 / 86400)).toBe('2024-03-05 23:59:59');
    // Half a second before midnight is the next day's midnight, not the same day's.
    expect(text(45356 + 86399.6 / 86400)).toBe('2024-03-06 00:00:00');
    expect(text(45356, true)).toBe('2028-03-06 00:00:00');
    // Excel's 1900 leap-year day and the days around it, as SheetJS reads them.
    expect([59, 60, 61].map((n) => text(n))).toEqual(['1900-02-28 00:00:00', '1900-02-29 00:00:00', '1900-03-01 00:00:00']);
  });

  it('gives the same answers from its remembered days', () => {
    const dates = serialDates(false);
    const serials = [45356.25, 45356.75, 45357.1, 45356.25];
    expect(serials.map((s) => dates(s)?.text)).toEqual(serials.map((s) => serialDate(s, false)?.text));
  });
});
