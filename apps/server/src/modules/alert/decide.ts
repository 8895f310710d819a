import type { AlertState } from '@shutu/contracts';

/**
 * What a check's outcome means (docs/alerts.md "What firing means"): the alert fires while its
 * query returns rows. ok → firing notifies once ('started'), then at most once per repeat
 * interval while it keeps firing ('repeat'); firing → ok notifies only when the alert asks for
 * recovery notices and its firing was notified ('recovered'). Inside quiet hours nothing is sent
 * ('quiet'): a firing not yet notified is notified by the first check after them, a recovery
 * inside them is not announced.
 */

export type NotifyReason = 'started' | 'repeat' | 'recovered' | 'quiet' | 'none';

export interface AlertMemory {
  state: AlertState;
  stateSince: Date | null;
  lastNotifiedTime: Date | null;
}

export interface AlertPolicy {
  repeatIntervalSeconds: number;
  notifyRecovery: boolean;
  quietStart: string | null;
  quietEnd: string | null;
}

export interface Decision {
  state: AlertState;
  stateSince: Date | null;
  /** Whether the state changed at this check. */
  changed: boolean;
  reason: NotifyReason;
}

/** 'HH:mm' of `now` on the installation's clock. */
export function clockOf(now: Date, offsetMinutes: number): string {
  return new Date(now.getTime() + offsetMinutes * 60_000).toISOString().slice(11, 16);
}

/** Inside quiet hours [start, end); a range past midnight (22:00–07:00) wraps. */
export function inQuietHours(clock: string, start: string | null, end: string | null): boolean {
  if (!start || !end || start === end) return false;
  return start < end ? clock >= start && clock < end : clock >= start || clock < end;
}

export function decide(memory: AlertMemory, firing: boolean, policy: AlertPolicy, now: Date, clock: string): Decision {
  const quiet = inQuietHours(clock, policy.quietStart, policy.quietEnd);
  if (firing) {
    const since = memory.state === 'firing' && memory.stateSince ? memory.stateSince : now;
    const changed = memory.state !== 'firing';
    const notifiedThisEpisode = memory.lastNotifiedTime !== null && memory.lastNotifiedTime >= since;
    let reason: NotifyReason = 'none';
    if (!notifiedThisEpisode) reason = 'started';
    else if (now.getTime() - memory.lastNotifiedTime!.getTime() >= policy.repeatIntervalSeconds * 1000) reason = 'repeat';
    return { state: 'firing', stateSince: since, changed, reason: reason !== 'none' && quiet ? 'quiet' : reason };
  }
  if (memory.state === 'firing') {
    const wasNotified = memory.lastNotifiedTime !== null && memory.stateSince !== null && memory.lastNotifiedTime >= memory.stateSince;
    const reason: NotifyReason = policy.notifyRecovery && wasNotified ? (quiet ? 'quiet' : 'recovered') : 'none';
    return { state: 'ok', stateSince: now, changed: true, reason };
  }
  return { state: 'ok', stateSince: memory.stateSince, changed: false, reason: 'none' };
}
