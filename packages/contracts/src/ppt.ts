import { z } from 'zod';
import { requiredText } from './common.ts';
import { BOARD_KINDS, BOARD_TYPES, boardAuthSaveSchema, boardAuthSchema } from './board.ts';
import { MAX_PPT_VISUALS, PPT_INTERVAL, PPT_NAME_MAX_LENGTH, pptMessages } from './ppt-constants.ts';

/**
 * Slideshows ("powerpoint", spec 1 §2.10, §3 "Slideshow", "Slideshow category", "Print
 * form", §4, §5, §7 "Slideshow", §9): an ordered list of dashboards paged through in a viewer,
 * with auto-play, full screen, PDF export with a watermark, subscription, favourite and archive.
 *
 * visualType: 0 a slideshow made in the slideshow editor; 1 a favourite and 2 an archive,
 * both saved by a user from the viewer ("Slideshow submit") into their own category lists.
 */

export * from './ppt-constants.ts';

export const pptSettingsSchema = z.object({
  autoPlay: z.boolean().default(false),
  interval: z.number().int().min(PPT_INTERVAL.min).max(PPT_INTERVAL.max).default(PPT_INTERVAL.default),
});
export type PptSettings = z.output<typeof pptSettingsSchema>;

/** A slideshow record (detail). settings is parsed from its JSON string. */
export const pptSchema = z.object({
  id: z.number(),
  ppName: z.string(),
  /** yyyy-MM; archives carry the month they archive. */
  ppMonth: z.string().nullable(),
  cateId: z.number(),
  visualIds: z.array(z.number()),
  settings: pptSettingsSchema,
  visualType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** Favourites and archives: the slideshow they were made from. */
  sourceId: z.number().nullable(),
  publicStatus: z.number(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  /** The caller may change and delete it. */
  editable: z.boolean(),
});
export type Ppt = z.infer<typeof pptSchema>;

/** One dashboard of a slideshow as the viewer's buttons and thumbnail grid show it. */
export const pptVisualSchema = z.object({
  id: z.number(),
  kind: z.enum(BOARD_KINDS),
  type: z.enum(BOARD_TYPES),
  title: z.string(),
  backgroundUrl: z.string().nullable(),
});
export type PptVisual = z.infer<typeof pptVisualSchema>;

/** Slideshow info (spec 1 §7): detail plus visualList, in the slideshow's order; boards the caller may not see are left out. */
export const pptDetailSchema = z.object({ detail: pptSchema, visualList: z.array(pptVisualSchema) });
export type PptDetail = z.infer<typeof pptDetailSchema>;

const yearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, pptMessages.monthInvalid);

/** Slideshow submit: create (no id) or update. Favourite / archive use visualType 1 / 2 and their own categories. */
export const pptSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  ppName: requiredText(pptMessages.nameRequired, PPT_NAME_MAX_LENGTH),
  ppMonth: yearMonth.nullish(),
  cateId: z.number().int().min(0).default(0),
  visualIds: z.array(z.number().int().positive()).min(1, pptMessages.visualsRequired).max(MAX_PPT_VISUALS),
  visualType: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
  sourceId: z.number().int().positive().nullish(),
  settings: pptSettingsSchema.prefault({}),
});
export type PptSave = z.input<typeof pptSaveSchema>;

export const pptListQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(10000).default(20),
  visualType: z.coerce.number().int().min(0).max(2).default(0),
  cateId: z.coerce.number().int().min(-1).optional(),
  ppName: z.string().trim().max(PPT_NAME_MAX_LENGTH).optional(),
  /** Only the caller's own (the viewer's mine=1). */
  mine: z.coerce.boolean().optional(),
});
export type PptListQuery = z.input<typeof pptListQuerySchema>;

/** A favourite or archive category (spec 1 §3 "Slideshow category"). */
export const pptCategorySchema = z.object({ id: z.number(), classifyName: z.string() });
export type PptCategory = z.infer<typeof pptCategorySchema>;
export const pptCategorySaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  visualType: z.union([z.literal(1), z.literal(2)]),
  classifyName: requiredText(pptMessages.categoryNameRequired, 50),
});

/** Print form (spec 1 §3): page 1 current, 2 all, 3 chosen (pagelist: board ids); shuiyin: watermark text. */
export const pptPrintSchema = z
  .object({
    page: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: pptMessages.exportTypeRequired }),
    /** page 1: the current board id; page 3: the chosen board ids. */
    pagelist: z.array(z.number().int().positive()).max(MAX_PPT_VISUALS).default([]),
    shuiyin: z.string().trim().max(50).default(pptMessages.watermarkDefault),
    /** Draw the watermark at all. */
    watermark: z.boolean().default(true),
  })
  .refine((v) => v.page === 2 || v.pagelist.length > 0, { message: pptMessages.exportTypeRequired, path: ['pagelist'] });
export type PptPrint = z.input<typeof pptPrintSchema>;

/** A PDF export task: progress as pages rendered of pages. */
export const pptPdfTaskSchema = z.object({
  id: z.string(),
  status: z.enum(['waiting', 'running', 'done', 'failed']),
  pages: z.number(),
  rendered: z.number(),
  fileName: z.string(),
  errMsg: z.string().nullable(),
  createTime: z.string(),
});
export type PptPdfTask = z.infer<typeof pptPdfTaskSchema>;

/**
 * Viewer routes. The spec gives only the full-screen form; the normal viewer is
 * /newbi/ppt/view/{ppid}/{id} (decision, docs/slideshows.md). id 0 or missing: the first board.
 */
export const pptRoutes = {
  list: '/newbi/ppt',
  edit: '/newbi/ppt/edit',
  view: (ppid: number, id = 0) => `/newbi/ppt/view/${ppid}/${id}`,
  full: (ppid: number, id = 0) => `/fullpowerpoint/${ppid}/${id}`,
} as const;

/** Authorisation of one slideshow (administrators): public, or the groups it is granted to (grant kind 'ppt'). Same shapes as a board's. */
export const pptAuthSchema = boardAuthSchema;
export const pptAuthSaveSchema = boardAuthSaveSchema;

/** The 幻灯片 tab of 权限设置: the slideshows granted to a group; saving replaces them all. */
export const groupPptAuthSaveSchema = z.object({ pptIdList: z.array(z.number().int().positive()).max(10000).default([]) });
export type GroupPptAuthSave = z.input<typeof groupPptAuthSaveSchema>;
