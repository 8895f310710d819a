import { z } from 'zod';
import { BOARD_KINDS, BOARD_TYPES } from './board.ts';
import { homeMessages } from './home-constants.ts';

export * from './home-constants.ts';

/**
 * 首页 (issue 16; docs/home.md): one call returns the signed-in user's sections — recently
 * opened boards and slideshows, favourite boards and slideshows, boards shared with them, and
 * on an install where they have made nothing yet a guided path through the demo content.
 */

/** Items shown per section, newest first. */
export const HOME_SECTION_SIZE = 12;
/** Visits kept per user (older ones are dropped when a new one is recorded). */
export const HOME_VISITS_KEPT = 50;

export const HOME_ITEM_KINDS = ['board', 'ppt'] as const;
export type HomeItemKind = (typeof HOME_ITEM_KINDS)[number];

/** POST visits: the user opened a board's preview or a slideshow's viewer. */
export const homeVisitSchema = z.object({
  kind: z.enum(HOME_ITEM_KINDS, { message: homeMessages.visitKindInvalid }),
  id: z.number().int().positive(),
});
export type HomeVisit = z.infer<typeof homeVisitSchema>;

/** A board or slideshow card of the home page. */
export const homeItemSchema = z.object({
  kind: z.enum(HOME_ITEM_KINDS),
  id: z.number(),
  title: z.string(),
  /** Boards: 可视化大屏 (visual) or 自助报表 (report); null for slideshows. */
  boardKind: z.enum(BOARD_KINDS).nullable(),
  /** Boards: screen or quick; null for slideshows. */
  boardType: z.enum(BOARD_TYPES).nullable(),
  /** Slideshows: 0 slideshow, 1 favourite, 2 archive (the viewer's flags follow it); null for boards. */
  pptVisualType: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable(),
  /** Slideshows: the boards in it the user may see; null for boards. */
  boardCount: z.number().nullable(),
  backgroundUrl: z.string().nullable(),
  ownerName: z.string().nullable(),
  /** When it was visited (recent), favourited, or last changed (shared), ISO. */
  time: z.string(),
  /** Boards: in the user's favourites. */
  favourite: z.boolean(),
});
export type HomeItem = z.infer<typeof homeItemSchema>;

/** The guided path through the demo content; a step is null when its object is gone or not the user's to open. */
export const homeGuideSchema = z.object({
  datasource: z.object({ id: z.number(), name: z.string() }).nullable(),
  dataset: z.object({ id: z.number(), name: z.string() }).nullable(),
  board: z.object({ id: z.number(), title: z.string() }).nullable(),
});
export type HomeGuide = z.infer<typeof homeGuideSchema>;

export const homeSchema = z.object({
  recent: z.array(homeItemSchema),
  favouriteBoards: z.array(homeItemSchema),
  favouritePpts: z.array(homeItemSchema),
  sharedBoards: z.array(homeItemSchema),
  /** Only while the user has made no board or dataset of their own beyond the demo content. */
  guide: homeGuideSchema.nullable(),
});
export type Home = z.infer<typeof homeSchema>;
