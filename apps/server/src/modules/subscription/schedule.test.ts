import { describe, expect, it } from 'vitest';
import { dueSlot, latestSlot as latestIn, nextSlot as nextIn, type Trigger } from './schedule.ts';

const day = (hour: number): Trigger => ({ triggerPeriod: 'day', triggerHour: hour, triggerWeekValue: 1, triggerDayValue: 1 });
const week = (value: number, hour: number): Trigger => ({ triggerPeriod: 'week', triggerHour: hour, triggerWeekValue: value, triggerDayValue: 1 });
const month = (value: number, hour: number): Trigger => ({ triggerPeriod: 'month', triggerHour: hour, triggerWeekValue: 1, triggerDayValue: value });
/** An instant given as Shanghai wall-clock time. */
const sh = (local: string) => new Date(`${local}+08:00`);
const HOUR = 3600_000;
const SH = 'Asia/Shanghai';
const latestSlot = (trigger: Trigger, now: Date) => latestIn(trigger, now, SH);
const nextSlot = (trigger: Trigger, now: Date) => nextIn(trigger, now, SH);

describe('subscription due times (Asia/Shanghai)', () => {
  it('day: today at the hour once it has come, else yesterday; hour 0 is Shanghai midnight (16:00 UTC)', () => {
    expect(latestSlot(day(9), sh('2026-03-10T09:30:00'))).toEqual(sh('2026-03-10T09:00:00'));
    expect(latestSlot(day(9), sh('2026-03-10T08:59:59'))).toEqual(sh('2026-03-09T09:00:00'));
    expect(latestSlot(day(0), sh('2026-03-10T00:00:00'))).toEqual(sh('2026-03-10T00:00:00'));
    expect(latestSlot(day(0), sh('2026-03-10T00:00:00')).toISOString()).toBe('2026-03-09T16:00:00.000Z');
    expect(nextSlot(day(23), sh('2026-03-10T23:30:00'))).toEqual(sh('2026-03-11T23:00:00'));
  });

  it('week: 1 is Sunday, 7 Saturday', () => {
    // 2026-03-10 is a Tuesday.
    expect(latestSlot(week(1, 8), sh('2026-03-10T12:00:00'))).toEqual(sh('2026-03-08T08:00:00'));
    expect(latestSlot(week(3, 8), sh('2026-03-10T12:00:00'))).toEqual(sh('2026-03-10T08:00:00'));
    expect(latestSlot(week(3, 13), sh('2026-03-10T12:00:00'))).toEqual(sh('2026-03-03T13:00:00'));
    expect(latestSlot(week(7, 0), sh('2026-03-10T12:00:00'))).toEqual(sh('2026-03-07T00:00:00'));
    expect(nextSlot(week(1, 8), sh('2026-03-10T12:00:00'))).toEqual(sh('2026-03-15T08:00:00'));
  });

  it('month: the day of the month, the last day in shorter months, across the year end', () => {
    expect(latestSlot(month(15, 6), sh('2026-03-20T00:00:00'))).toEqual(sh('2026-03-15T06:00:00'));
    expect(latestSlot(month(15, 6), sh('2026-03-15T05:59:00'))).toEqual(sh('2026-02-15T06:00:00'));
    expect(latestSlot(month(30, 6), sh('2026-03-01T00:00:00'))).toEqual(sh('2026-02-28T06:00:00'));
    expect(latestSlot(month(5, 0), sh('2026-01-03T00:00:00'))).toEqual(sh('2025-12-05T00:00:00'));
    expect(nextSlot(month(30, 6), sh('2026-01-31T00:00:00'))).toEqual(sh('2026-02-28T06:00:00'));
  });

  it('due: the latest time when new and at most an hour old (catch-up after downtime)', () => {
    const slot = sh('2026-03-10T09:00:00');
    expect(dueSlot(day(9), null, sh('2026-03-10T09:00:20'), HOUR, SH)).toEqual(slot);
    expect(dueSlot(day(9), null, sh('2026-03-10T09:59:00'), HOUR, SH)).toEqual(slot);
    expect(dueSlot(day(9), null, sh('2026-03-10T10:01:00'), HOUR, SH)).toBeUndefined();
    expect(dueSlot(day(9), slot, sh('2026-03-10T09:01:00'), HOUR, SH)).toBeUndefined();
    expect(dueSlot(day(9), sh('2026-03-09T09:00:00'), sh('2026-03-10T09:01:00'), HOUR, SH)).toEqual(slot);
  });

  it('due: an operator may widen the catch-up window (a server down all morning still sends the 09:00 report)', () => {
    expect(dueSlot(day(9), null, sh('2026-03-10T13:30:00'), HOUR, SH)).toBeUndefined();
    expect(dueSlot(day(9), null, sh('2026-03-10T13:30:00'), 6 * HOUR, SH)).toEqual(sh('2026-03-10T09:00:00'));
  });
});

describe('subscription due times in another zone (系统设置 → 时区)', () => {
  const ny = 'America/New_York';
  it('Asia/Tokyo: 8:00 is 8:00 on the Tokyo clock, an hour before 8:00 in Shanghai', () => {
    const tokyo = (local: string) => new Date(`${local}+09:00`);
    expect(nextIn(day(8), tokyo('2026-11-25T12:00:00'), 'Asia/Tokyo')).toEqual(tokyo('2026-11-26T08:00:00'));
    expect(nextIn(day(8), tokyo('2026-11-25T12:00:00'), 'Asia/Tokyo').toISOString()).toBe('2026-11-25T23:00:00.000Z');
    expect(latestIn(week(2, 9), tokyo('2026-11-25T12:00:00'), 'Asia/Tokyo')).toEqual(tokyo('2026-11-23T09:00:00'));
  });

  it('America/New_York: a daily 8:00 stays 8:00 across the spring and autumn changes (23- and 25-hour days)', () => {
    // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT.
    expect(latestIn(day(8), new Date('2026-03-07T20:00:00-05:00'), ny)).toEqual(new Date('2026-03-07T08:00:00-05:00'));
    expect(nextIn(day(8), new Date('2026-03-07T20:00:00-05:00'), ny)).toEqual(new Date('2026-03-08T08:00:00-04:00'));
    expect(nextIn(day(8), new Date('2026-03-07T20:00:00-05:00'), ny).toISOString()).toBe('2026-03-08T12:00:00.000Z');
    // 2026-11-01: clocks go back from 02:00 EDT to 01:00 EST.
    expect(nextIn(day(8), new Date('2026-10-31T20:00:00-04:00'), ny)).toEqual(new Date('2026-11-01T08:00:00-05:00'));
    expect(nextIn(week(1, 8), new Date('2026-10-28T12:00:00-04:00'), ny)).toEqual(new Date('2026-11-01T08:00:00-05:00'));
    expect(nextIn(month(1, 8), new Date('2026-10-15T12:00:00-04:00'), ny)).toEqual(new Date('2026-11-01T08:00:00-05:00'));
  });

  it('America/New_York: the hour skipped in spring is sent at the hour after it; the hour repeated in autumn once', () => {
    expect(nextIn(day(2), new Date('2026-03-07T12:00:00-05:00'), ny)).toEqual(new Date('2026-03-08T03:00:00-04:00'));
    expect(nextIn(day(1), new Date('2026-10-31T12:00:00-04:00'), ny)).toEqual(new Date('2026-11-01T01:00:00-04:00'));
    // The second 01:00 (EST) is not another due time.
    expect(nextIn(day(1), new Date('2026-11-01T01:30:00-04:00'), ny)).toEqual(new Date('2026-11-02T01:00:00-05:00'));
    expect(dueSlot(day(1), new Date('2026-11-01T01:00:00-04:00'), new Date('2026-11-01T01:10:00-05:00'), HOUR, ny)).toBeUndefined();
  });
});
