import { z } from 'zod';
import { heatmapMessages } from './heatmap-constants.ts';

export * from './heatmap-constants.ts';

/**
 * Click heat map (spec 1 §2.8 "Heat-map page", §3 "Heat event", §5, §7 "Heat map", §9 "Heat map";
 * issue 22, docs/heatmap.md): the website titles of the user-event data, a phone looked up to its
 * shence_id (distinct id), and the clickScreen events of one user (or everyone) on one page in a
 * date range, each x given as its ratio of the page width so clicks made at other widths land on
 * the same element.
 */

/** Spec 1 §9 "Heat map". */
export const HEATMAP_LIMIT = 100_000;
export const HEATMAP_MAX = 200;
export const HEATMAP_MIN = 0;
export const HEATMAP_POINT_VALUE = 100;
export const HEATMAP_RADIUS = 40;
export const HEATMAP_EVENT = 'clickScreen';
/** Top clicked areas: cells of 5 % of the page width by 100 px of height, the busiest ten. */
export const HEATMAP_AREA_COLUMNS = 20;
export const HEATMAP_AREA_HEIGHT = 100;
export const HEATMAP_TOP_AREAS = 10;

export { HEATMAP_PATHS } from './constants.ts';

/** A batch holds at most this many events (the tracker sends far fewer). */
export const TRACK_BATCH_MAX = 1000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string({ error: heatmapMessages.dateRangeRequired })
  .trim()
  .regex(DAY, heatmapMessages.dateRangeRequired)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), heatmapMessages.dateRangeRequired);
const optionalText = z
  .string()
  .trim()
  .max(200)
  .nullish()
  .transform((s) => (s ? s : null));

export const heatmapTitleSchema = z.object({
  title: z.string(),
  url: z.string(),
  platformType: z.string().nullable(),
  /** Height of the page in px when the warehouse knows it (web_pages.page_height). */
  pageHeight: z.number().nullable(),
  /** Where the product shows the page: the demo website's own address for its pages, the url otherwise. */
  viewUrl: z.string(),
});
export type HeatmapTitle = z.infer<typeof heatmapTitleSchema>;

export const heatmapPhoneQuerySchema = z.object({
  phone: z
    .string({ error: heatmapMessages.phoneRequired })
    .trim()
    .min(1, heatmapMessages.phoneRequired)
    .regex(/^\+?[0-9-]{5,20}$/, heatmapMessages.phoneInvalid),
});
export const heatmapPhoneSchema = z.object({ tel: z.string(), shenceId: z.string() });
export type HeatmapPhone = z.infer<typeof heatmapPhoneSchema>;

/** The user event list (spec 1 §7): dates are whole days, both included. */
export const heatmapQuerySchema = z
  .object({
    distinctId: optionalText,
    startTime: day,
    endTime: day,
    event: z.literal(HEATMAP_EVENT).default(HEATMAP_EVENT),
    limit: z.number().int().min(1).max(HEATMAP_LIMIT).default(HEATMAP_LIMIT),
    platformType: optionalText,
    proj: optionalText,
    title: z.string({ error: heatmapMessages.titleRequired }).trim().min(1, heatmapMessages.titleRequired).max(200),
  })
  .refine((q) => q.startTime <= q.endTime, { message: heatmapMessages.dateRangeOrder, path: ['endTime'] });
export type HeatmapQuery = z.input<typeof heatmapQuerySchema>;
export type HeatmapQueryParsed = z.output<typeof heatmapQuerySchema>;

/** A click: x as a ratio of the page width (0…1), y in page pixels, the width it was made at. */
export const heatmapPointSchema = z.object({ x: z.number(), y: z.number(), width: z.number() });
export const heatmapAreaSchema = z.object({ x: z.number(), y: z.number(), count: z.number() });
export const heatmapPageCountSchema = z.object({ title: z.string(), url: z.string(), count: z.number() });
export const heatmapResultSchema = z.object({
  points: z.array(heatmapPointSchema),
  /** Points of the chosen page (at most the limit). */
  total: z.number(),
  /** More clicks than the limit were there. */
  truncated: z.boolean(),
  /** Clicks per page for the same user and dates. */
  pages: z.array(heatmapPageCountSchema),
  /** Busiest cells of the chosen page: centre x (ratio), centre y (px), clicks. */
  topAreas: z.array(heatmapAreaSchema),
});
export type HeatmapPoint = z.infer<typeof heatmapPointSchema>;
export type HeatmapArea = z.infer<typeof heatmapAreaSchema>;
export type HeatmapResult = z.infer<typeof heatmapResultSchema>;

/** One tracked click as the tracker sends it: x, y in page px, the page width it was made at. */
export const trackEventSchema = z
  .object({
    event: z.literal(HEATMAP_EVENT),
    x: z.number().int().min(0).max(100_000),
    y: z.number().int().min(0).max(1_000_000),
    pageWidth: z.number().int().min(1).max(100_000),
    url: z
      .string()
      .min(1)
      .max(1000)
      .regex(/^https?:\/\//),
    title: z.string().trim().min(1).max(200),
    distinctId: z.string().min(1).max(100),
    phone: z
      .string()
      .regex(/^\+?[0-9-]{5,20}$/)
      .nullish(),
  })
  .refine((e) => e.x <= e.pageWidth, { path: ['x'] });
export const trackBatchSchema = z.object({
  writeKey: z.string().min(1).max(64),
  events: z.array(trackEventSchema).min(1).max(TRACK_BATCH_MAX),
});
/** The batch's frame, checked before its events: a batch that fails it is refused whole. */
export const trackBatchEnvelopeSchema = z.object({
  writeKey: z.string().min(1).max(64),
  events: z.array(z.unknown()).min(1).max(TRACK_BATCH_MAX),
});
/** The answer to a batch: events stored, events dropped as invalid, and what was wrong with the first of them. */
export const trackBatchResultSchema = z.object({ accepted: z.number(), dropped: z.number(), error: z.string().nullable() });
export type TrackBatchResult = z.infer<typeof trackBatchResultSchema>;
export type TrackEvent = z.infer<typeof trackEventSchema>;
export type TrackBatch = z.infer<typeof trackBatchSchema>;
