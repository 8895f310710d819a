import { sql } from 'kysely';
import { subscriptionMessages, type SubscriptionDataType } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/permissions.ts';
import { mayViewBoard, requireViewableBoard } from '../board/access.ts';
import { findBoard } from '../board/repo.ts';

/**
 * What a subscription renders: the boards behind (dataType, dataId), in order, as the caller
 * may see them. A dashboard or report is itself; a slideshow is its boards (visual_ids of the
 * ppt table, engineer P1's module), leaving out those the caller may not see — the same rule
 * as the slideshow viewer. Read here with one bound query so this module does not depend on
 * the slideshow module's internals.
 */
export interface SubscriptionTarget {
  title: string;
  boardIds: number[];
}

async function readPpt(ctx: AppContext, id: number): Promise<{ ppName: string; visualIds: number[] } | undefined> {
  try {
    const result = await sql<{ pp_name: string; visual_ids: string }>`select pp_name, visual_ids from ppt where id = ${id}`.execute(ctx.db);
    const row = result.rows[0];
    if (!row) return undefined;
    const ids: unknown = JSON.parse(row.visual_ids);
    return { ppName: row.pp_name, visualIds: Array.isArray(ids) ? ids.filter((v): v is number => typeof v === 'number') : [] };
  } catch {
    // No slideshow table yet (module not installed) or unreadable ids: treated as missing.
    return undefined;
  }
}

/** The target, if the caller may see it (404/403 otherwise, with the board or slideshow message). */
export async function requireSubscriptionTarget(ctx: AppContext, caller: Caller, dataType: SubscriptionDataType, dataId: number): Promise<SubscriptionTarget> {
  if (dataType !== 'ppt') {
    const board = await requireViewableBoard(ctx, caller, dataId);
    return { title: board.title, boardIds: [board.id] };
  }
  const ppt = await readPpt(ctx, dataId);
  if (!ppt) throw notFound(subscriptionMessages.pptNotFound);
  const boardIds: number[] = [];
  for (const id of ppt.visualIds) {
    const board = await findBoard(ctx.db, id);
    if (board && (await mayViewBoard(ctx, caller, board))) boardIds.push(id);
  }
  return { title: ppt.ppName, boardIds };
}
