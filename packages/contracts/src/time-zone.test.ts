import { describe, expect, it } from 'vitest';
import { instantOfWallClock, zoneOffsetMinutes } from './time-zone.ts';

describe('zoneOffsetMinutes', () => {
  it('gives each zone its own offset at the same instant', () => {
    const instant = new Date('2026-07-01T12:00:30Z');
    expect(zoneOffsetMinutes('Asia/Shanghai', instant)).toBe(480);
    expect(zoneOffsetMinutes('America/New_York', instant)).toBe(-240);
    expect(zoneOffsetMinutes('Asia/Kolkata', instant)).toBe(330);
    expect(zoneOffsetMinutes('Asia/Shanghai', instant)).toBe(480);
  });

  it('changes on the minute a daylight-saving jump happens, asked again and again', () => {
    // New York springs forward at 2026-03-08 07:00 UTC (02:00 EST → 03:00 EDT).
    for (let round = 0; round < 2; round++) {
      expect(zoneOffsetMinutes('America/New_York', new Date('2026-03-08T06:59:59.999Z'))).toBe(-300);
      expect(zoneOffsetMinutes('America/New_York', new Date('2026-03-08T07:00:00Z'))).toBe(-240);
      expect(zoneOffsetMinutes('America/New_York', new Date('2026-11-01T05:59:59Z'))).toBe(-240);
      expect(zoneOffsetMinutes('America/New_York', new Date('2026-11-01T06:00:00Z'))).toBe(-300);
    }
  });

  it('reads offsets of old instants as the zone had them', () => {
    // Shanghai kept daylight-saving time in the summers of 1986–1991.
    expect(zoneOffsetMinutes('Asia/Shanghai', new Date('1988-07-01T00:00:00Z'))).toBe(540);
    // Monrovia ran 44 minutes 30 seconds behind UTC until 1972 (a change off the whole minute).
    expect(zoneOffsetMinutes('Africa/Monrovia', new Date('1971-06-01T00:00:00Z'))).toBe(-44);
    expect(zoneOffsetMinutes('Africa/Monrovia', new Date('1973-06-01T00:00:00Z'))).toBe(0);
  });

  it('keeps answering right after many different minutes were asked', () => {
    const start = Date.UTC(2026, 0, 1);
    for (let minute = 0; minute < 2000; minute++) {
      expect(zoneOffsetMinutes('Europe/Berlin', new Date(start + minute * 60_000))).toBe(60);
    }
    expect(zoneOffsetMinutes('Europe/Berlin', new Date('2026-07-01T00:00:00Z'))).toBe(120);
  });
});

describe('instantOfWallClock', () => {
  it('finds the instant a clock reads a wall time, across a jump', () => {
    expect(instantOfWallClock('Asia/Shanghai', 2026, 11, 27, 8).toISOString()).toBe('2026-11-27T00:00:00.000Z');
    // 02:30 does not exist on the spring-forward night: read with the offset before, landing at 03:30 EDT.
    expect(instantOfWallClock('America/New_York', 2026, 3, 8, 2, 30).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });
});
