import { shareMessages, type ShareDataType } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { requireViewableBoard } from '../board/index.ts';
import { requireViewablePpt } from '../ppt/index.ts';
import type { Caller } from '../perm/index.ts';

/** What a link shows: its title, the boards a token for it may read (in order), the slideshow if one. */
export interface SharedContent {
  title: string;
  boardIds: number[];
  ppt: number | null;
}

/**
 * The shared content, if `caller` may see it: dashboards and reports through the board's own
 * rules (403 没有此大屏权限, 404 when missing or of the other kind); slideshows through the
 * slideshow's (403 没有此幻灯片权限, 404).
 */
export async function viewableContent(ctx: AppContext, caller: Caller, dataType: ShareDataType, dataId: number): Promise<SharedContent> {
  if (dataType === 'ppt') return slideshowContent(ctx, caller, dataId);
  const board = await requireViewableBoard(ctx, caller, dataId);
  if (board.kind !== dataType) throw notFound(shareMessages.dataNotFound);
  return { title: board.title, boardIds: [board.id], ppt: null };
}

/** A slideshow: the boards of it the caller may see, in its order (the viewer leaves the others out too). */
async function slideshowContent(ctx: AppContext, caller: Caller, pptId: number): Promise<SharedContent> {
  const { ppt, boardIds } = await requireViewablePpt(ctx, caller, pptId);
  return { title: ppt.ppName, boardIds, ppt: ppt.id };
}

/** The error's status when it is one of ours, else undefined. */
export const statusOf = (error: unknown): number | undefined => (error instanceof AppError ? error.status : undefined);
