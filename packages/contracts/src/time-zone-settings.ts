import { z } from 'zod';
import { canonicalTimeZone, timeZoneInvalid, timeZoneRequired } from './time-zone.ts';

/** 系统设置 → 时区's form (time-zone.ts holds the zone functions without zod: the light pages use them). */
export const timeZoneSettingsSchema = z.object({
  timeZone: z
    .string(timeZoneRequired)
    .trim()
    .min(1, timeZoneRequired)
    .max(64, timeZoneInvalid('…'))
    .transform((value, ctx) => {
      const zone = canonicalTimeZone(value);
      if (zone === undefined) {
        ctx.addIssue({ code: 'custom', message: timeZoneInvalid(value) });
        return z.NEVER;
      }
      return zone;
    }),
});
export type TimeZoneSettingsInput = z.input<typeof timeZoneSettingsSchema>;
export type TimeZoneSettings = z.output<typeof timeZoneSettingsSchema>;
