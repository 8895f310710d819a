import type { SubscriptionDataType } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { Caller } from '../perm/index.ts';
import { requireViewableBoard } from '../board/index.ts';
import { requireViewablePpt } from '../ppt/index.ts';

/**
 * What a subscription renders: the boards behind (dataType, dataId), in order, as the caller
 * may see them. A dashboard or report is itself; a slideshow is its boards, leaving out those
 * the caller may not see — the slideshow viewer's own rule (ppt/access.ts).
 */
export interface SubscriptionTarget {
  title: string;
  boardIds: number[];
}

/** The target, if the caller may see it (404/403 otherwise, with the board or slideshow message). */
export async function requireSubscriptionTarget(ctx: AppContext, caller: Caller, dataType: SubscriptionDataType, dataId: number): Promise<SubscriptionTarget> {
  if (dataType !== 'ppt') {
    const board = await requireViewableBoard(ctx, caller, dataId);
    return { title: board.title, boardIds: [board.id] };
  }
  const { ppt, boardIds } = await requireViewablePpt(ctx, caller, dataId);
  return { title: ppt.ppName, boardIds };
}
