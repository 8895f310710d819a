import { afterEach, describe, expect, it } from 'vitest';
import {
  displayTimeZoneLabel,
  displayTimeZoneName,
  formatDate,
  formatDateTime,
  formatDateTimeLabelled,
  getDisplayTimeZone,
  setDisplayTimeZone,
  todayInDisplayZone,
} from './time.ts';

describe('times on the installation’s clock', () => {
  afterEach(() => setDisplayTimeZone('Asia/Shanghai'));

  it('shows Beijing time by default, whatever the browser’s zone, labelled 北京时间', () => {
    expect(getDisplayTimeZone()).toBe('Asia/Shanghai');
    expect(formatDateTime('2026-11-26T00:00:00.000Z')).toBe('2026-11-26 08:00:00');
    expect(formatDateTime('2026-11-25T16:30:05Z', 'minute')).toBe('2026-11-26 00:30');
    expect(formatDate('2026-11-25T16:30:05Z')).toBe('2026-11-26');
    expect(formatDateTimeLabelled('2026-11-26T00:00:00.000Z')).toBe('2026-11-26 08:00:00（北京时间）');
    expect(displayTimeZoneName()).toBe('北京时间');
    expect(todayInDisplayZone(new Date('2026-11-25T20:00:00Z'))).toBe('2026-11-26');
  });

  it('follows the zone the server names, with the offset of that day where daylight saving applies', () => {
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatDateTimeLabelled('2026-11-25T23:00:00Z')).toBe('2026-11-26 08:00:00（UTC+09:00）');
    expect(displayTimeZoneName(new Date('2026-11-25T23:00:00Z'))).toBe('东京（Asia/Tokyo，UTC+09:00）');
    setDisplayTimeZone('America/New_York');
    expect(formatDateTimeLabelled('2026-01-15T13:00:00Z')).toBe('2026-01-15 08:00:00（UTC-05:00）');
    expect(formatDateTimeLabelled('2026-07-15T12:00:00Z')).toBe('2026-07-15 08:00:00（UTC-04:00）');
    expect(displayTimeZoneLabel('2026-07-15T12:00:00Z')).toBe('UTC-04:00');
  });

  it('keeps the zone it has when the server names one the browser does not know; shows - for no time and raw text for a bad one', () => {
    setDisplayTimeZone('Asia/Tokyo');
    setDisplayTimeZone('Mars/Olympus_Mons');
    setDisplayTimeZone(undefined);
    expect(getDisplayTimeZone()).toBe('Asia/Tokyo');
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime('')).toBe('-');
    expect(formatDate(undefined)).toBe('-');
    expect(formatDateTime('不是时间')).toBe('不是时间');
  });
});
