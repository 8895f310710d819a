import { instantOfWallClock, wallClock, type TriggerPeriod } from '@shutu/contracts';

/**
 * Due times ("slots") of a subscription (docs/subscriptions.md "Scheduler"). Trigger values
 * are wall-clock times in the installation's time zone (系统设置 → 时区, default Asia/Shanghai),
 * counted on that zone's calendar, so a zone with daylight saving keeps 8:00 at 8:00 across
 * the change (the day in between is 23 or 25 hours long). A slot is the due instant itself:
 * day → every day at hour:00; week → on triggerWeekValue (1 = Sunday … 7 = Saturday) at
 * hour:00; month → on triggerDayValue (1–30; in a month shorter than that, its last day) at
 * hour:00. An hour skipped by a spring-forward jump is read as the hour after it.
 */
export interface Trigger {
  triggerPeriod: TriggerPeriod;
  triggerHour: number;
  triggerWeekValue: number;
  triggerDayValue: number;
}

/** A calendar day of the zone (month 1–12); Date.UTC normalises overflowing days and months. */
interface Day {
  year: number;
  month: number;
  day: number;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const shiftDays = (d: Day, days: number): Day => {
  const date = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};
const shiftMonths = (d: Day, months: number): Day => {
  const date = new Date(Date.UTC(d.year, d.month - 1 + months, 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: 1 };
};

/** The day the period's slot falls on, in the period that contains `today`. */
function slotDay(trigger: Trigger, today: Day, weekday: number): Day {
  switch (trigger.triggerPeriod) {
    case 'day':
      return today;
    case 'week':
      return shiftDays(today, -((weekday - (trigger.triggerWeekValue - 1) + 7) % 7));
    case 'month':
      return { ...today, day: Math.min(trigger.triggerDayValue, daysIn(today.year, today.month)) };
  }
}

/** The same slot one period earlier (back = -1) or later (+1). */
function shiftPeriod(trigger: Trigger, day: Day, by: 1 | -1): Day {
  switch (trigger.triggerPeriod) {
    case 'day':
      return shiftDays(day, by);
    case 'week':
      return shiftDays(day, 7 * by);
    case 'month': {
      const month = shiftMonths(day, by);
      return { ...month, day: Math.min(trigger.triggerDayValue, daysIn(month.year, month.month)) };
    }
  }
}

const slotAt = (zone: string, trigger: Trigger, d: Day) => instantOfWallClock(zone, d.year, d.month, d.day, trigger.triggerHour);

/** The day of the latest due time at or before `now`, on the zone's calendar. */
function latestSlotDay(trigger: Trigger, now: Date, zone: string): Day {
  const clock = wallClock(zone, now);
  const day = slotDay(trigger, { year: clock.year, month: clock.month, day: clock.day }, clock.weekday);
  return slotAt(zone, trigger, day) > now ? shiftPeriod(trigger, day, -1) : day;
}

/** The latest due time at or before `now`. */
export function latestSlot(trigger: Trigger, now: Date, zone: string): Date {
  return slotAt(zone, trigger, latestSlotDay(trigger, now, zone));
}

/** The first due time after `now`. */
export function nextSlot(trigger: Trigger, now: Date, zone: string): Date {
  return slotAt(zone, trigger, shiftPeriod(trigger, latestSlotDay(trigger, now, zone), 1));
}

/**
 * The slot a tick at `now` should send, if any: the latest due time, when it lies within the
 * catch-up window (a due time missed while the server was down is still sent that late; config
 * subscriptionCatchUpMs) and is later than the last one handed out (lastSlot).
 */
export function dueSlot(trigger: Trigger, lastSlot: Date | null, now: Date, catchUpMs: number, zone: string): Date | undefined {
  const slot = latestSlot(trigger, now, zone);
  if (now.getTime() - slot.getTime() > catchUpMs) return undefined;
  if (lastSlot && slot.getTime() <= lastSlot.getTime()) return undefined;
  return slot;
}
