import { SUBSCRIPTION_UTC_OFFSET_HOURS, type TriggerPeriod } from '@shutu/contracts';

/**
 * Due times ("slots") of a subscription (docs/subscriptions.md "Scheduler"). Trigger values
 * are wall-clock times in Asia/Shanghai, which is UTC+8 all year (no daylight saving), so a
 * fixed offset is exact. A slot is the due instant itself: day → every day at hour:00; week →
 * on triggerWeekValue (1 = Sunday … 7 = Saturday) at hour:00; month → on triggerDayValue
 * (1–30; in a month shorter than that, its last day) at hour:00.
 */
export interface Trigger {
  triggerPeriod: TriggerPeriod;
  triggerHour: number;
  triggerWeekValue: number;
  triggerDayValue: number;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const OFFSET = SUBSCRIPTION_UTC_OFFSET_HOURS * HOUR;

/** The Shanghai wall clock as UTC fields of a shifted Date. */
const toLocal = (instant: Date) => new Date(instant.getTime() + OFFSET);
const fromLocal = (local: Date) => new Date(local.getTime() - OFFSET);
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

function monthSlot(year: number, month: number, trigger: Trigger): Date {
  const day = Math.min(trigger.triggerDayValue, daysIn(year, month));
  return new Date(Date.UTC(year, month, day, trigger.triggerHour));
}

/** The latest due time at or before `now`. */
export function latestSlot(trigger: Trigger, now: Date): Date {
  const local = toLocal(now);
  const [y, m, d] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  let candidate: Date;
  switch (trigger.triggerPeriod) {
    case 'day':
      candidate = new Date(Date.UTC(y, m, d, trigger.triggerHour));
      if (candidate > local) candidate = new Date(candidate.getTime() - DAY);
      break;
    case 'week': {
      const back = (local.getUTCDay() - (trigger.triggerWeekValue - 1) + 7) % 7;
      candidate = new Date(Date.UTC(y, m, d - back, trigger.triggerHour));
      if (candidate > local) candidate = new Date(candidate.getTime() - 7 * DAY);
      break;
    }
    case 'month':
      candidate = monthSlot(y, m, trigger);
      if (candidate > local) candidate = m === 0 ? monthSlot(y - 1, 11, trigger) : monthSlot(y, m - 1, trigger);
      break;
  }
  return fromLocal(candidate);
}

/** The first due time after `now`. */
export function nextSlot(trigger: Trigger, now: Date): Date {
  const latest = latestSlot(trigger, now);
  switch (trigger.triggerPeriod) {
    case 'day':
      return new Date(latest.getTime() + DAY);
    case 'week':
      return new Date(latest.getTime() + 7 * DAY);
    case 'month': {
      const local = toLocal(latest);
      const [y, m] = [local.getUTCFullYear(), local.getUTCMonth()];
      return fromLocal(m === 11 ? monthSlot(y + 1, 0, trigger) : monthSlot(y, m + 1, trigger));
    }
  }
}

/**
 * The slot a tick at `now` should send, if any: the latest due time, when it lies within the
 * catch-up window (a due time missed while the server was down is still sent that late; config
 * subscriptionCatchUpMs) and is later than the last one handed out (lastSlot).
 */
export function dueSlot(trigger: Trigger, lastSlot: Date | null, now: Date, catchUpMs: number): Date | undefined {
  const slot = latestSlot(trigger, now);
  if (now.getTime() - slot.getTime() > catchUpMs) return undefined;
  if (lastSlot && slot.getTime() <= lastSlot.getTime()) return undefined;
  return slot;
}
