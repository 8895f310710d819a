import type { z } from 'zod';
import {
  formatMessage,
  PPT_VISUAL_TYPES,
  pptMessages,
  type Page,
  type Ppt,
  type PptDetail,
  type pptListQuerySchema,
  type pptSaveSchema,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { MaybeScoped } from '../../platform/auth/scope.ts';
import { page } from '../../platform/http/envelope.ts';
import { fieldError, forbidden, notFound } from '../../platform/http/errors.ts';
import { mayViewBoard, assertBoardsShowNoHiddenColumns } from '../board/index.ts';
import { removeGrantsOf, PUBLIC_STATUS, type Caller } from '../perm/index.ts';
import { pptVisibilityOf, requireEditablePpt, requirePpt, requireViewablePpt } from './access.ts';
import { requireOwnCategory } from './categories.ts';
import { currentMonth, parseVisualIds, toPpt } from './model.ts';
import { deletePptRow, findBoardsForSlides, findPpt, findPptPage, insertPpt, updatePpt, type PptRow } from './repo.ts';

export type PptListBody = z.output<typeof pptListQuerySchema>;
export type PptSaveBody = z.output<typeof pptSaveSchema>;

/**
 * Slideshows, favourites and archives (spec 1 §2.10, §3 "Slideshow", §5, §6, §7 "Slideshow";
 * docs/slideshows.md): list, info, submit, delete. Who may do what is access.ts; the
 * favourite and archive categories categories.ts; authorisation auth.ts.
 */

/**
 * The list. visualType 0: the slideshows the caller may see (mine: only their own);
 * 1 / 2: the caller's own favourites / archives, in one category (cateId ≥ 0) or all.
 */
export async function listPpts(ctx: AppContext, caller: Caller, query: PptListBody): Promise<Page<Ppt>> {
  const { current, size } = query;
  const visualType = query.visualType as 0 | 1 | 2;
  const own = visualType !== PPT_VISUAL_TYPES.normal || query.mine === true;
  const { rows, total } = await findPptPage(
    ctx.db,
    {
      visualType,
      cateId: visualType !== PPT_VISUAL_TYPES.normal && query.cateId !== undefined && query.cateId >= 0 ? query.cateId : undefined,
      ppName: query.ppName || undefined,
      ownerId: own ? caller.userId : undefined,
      visibleTo: own ? undefined : await pptVisibilityOf(ctx, caller),
    },
    (current - 1) * size,
    size,
  );
  return page(
    rows.map((r) => toPpt(r, caller)),
    total,
    current,
    size,
  );
}

/** Slideshow info: the record and its boards the caller may see, in order (deleted ones left out). */
export async function getPptDetail(ctx: AppContext, caller: Caller & MaybeScoped, id: number): Promise<PptDetail> {
  const { ppt, visuals } = await requireViewablePpt(ctx, caller, id);
  return { detail: toPpt(ppt, caller), visualList: visuals };
}

/**
 * The boards a save may hold, in the requested order, each once: those already in the record
 * stay (an owner who lost sight of a board does not lose it by renaming the slideshow);
 * every other one must exist (404 大屏【id】不存在) and be visible to the saver (403).
 */
async function checkedVisualIds(ctx: AppContext, caller: Caller, requested: readonly number[], kept: readonly number[]): Promise<number[]> {
  const ids = [...new Set(requested)];
  const keep = new Set(kept);
  const boards = new Map((await findBoardsForSlides(ctx.db, ids)).map((b) => [b.id, b]));
  for (const id of ids) {
    if (keep.has(id)) continue;
    const board = boards.get(id);
    if (!board) throw notFound(formatMessage(pptMessages.visualMissing, { id }));
    if (!(await mayViewBoard(ctx, caller, board))) throw forbidden(formatMessage(pptMessages.visualForbidden, { title: board.title }));
  }
  // Nobody publishes a column they may not see: a board added with a chart reading one is refused.
  await assertBoardsShowNoHiddenColumns(
    ctx,
    caller,
    ids.filter((id) => !keep.has(id)),
  );
  return ids;
}

/**
 * A favourite or archive holds the boards of the request that belong to its source and
 * that the saver may see (a viewer never sees the others, so cannot keep them): at least one.
 */
async function favouriteVisualIds(ctx: AppContext, caller: Caller, requested: readonly number[], source: PptRow): Promise<number[]> {
  const { boardIds } = await requireViewablePpt(ctx, caller, source.id);
  const inSource = new Set(boardIds);
  const ids = [...new Set(requested)].filter((id) => inSource.has(id));
  if (ids.length === 0) throw fieldError('visualIds', pptMessages.visualsRequired);
  return ids;
}

/** Slideshow submit: creates (no id) or updates a slideshow, favourite or archive; returns it. */
export async function savePpt(ctx: AppContext, caller: Caller, body: PptSaveBody): Promise<Ppt> {
  const id = body.id ? await updateExisting(ctx, caller, body.id, body) : await createNew(ctx, caller, body);
  const saved = await findPpt(ctx.db, id);
  if (!saved) throw notFound(pptMessages.notFound);
  return toPpt(saved, caller);
}

async function createNew(ctx: AppContext, caller: Caller, body: PptSaveBody): Promise<number> {
  const visualType = body.visualType;
  const common = { ppName: body.ppName, settings: JSON.stringify(body.settings), visualType, createUserId: caller.userId };
  if (visualType === PPT_VISUAL_TYPES.normal) {
    const visualIds = await checkedVisualIds(ctx, caller, body.visualIds, []);
    return insertPpt(ctx.db, {
      ...common,
      ppMonth: body.ppMonth ?? null,
      cateId: 0,
      visualIds: JSON.stringify(visualIds),
      sourceId: null,
      publicStatus: PUBLIC_STATUS.public,
    });
  }
  if (!body.sourceId) throw fieldError('sourceId', pptMessages.sourceRequired);
  const source = await requirePpt(ctx, caller, body.sourceId);
  const visualIds = await favouriteVisualIds(ctx, caller, body.visualIds, source);
  await requireOwnCategory(ctx, caller, visualType, body.cateId);
  // An archive is of a month: the one chosen, else the current one (spec 1 §4).
  const ppMonth = visualType === PPT_VISUAL_TYPES.archive ? (body.ppMonth ?? currentMonth()) : (body.ppMonth ?? source.ppMonth);
  return insertPpt(ctx.db, {
    ...common,
    ppMonth,
    cateId: body.cateId,
    visualIds: JSON.stringify(visualIds),
    sourceId: source.id,
    publicStatus: PUBLIC_STATUS.restricted,
  });
}

/** An update keeps the record's type (the body's is ignored), owner, source and public status. */
async function updateExisting(ctx: AppContext, caller: Caller, id: number, body: PptSaveBody): Promise<number> {
  const row = await requireEditablePpt(ctx, caller, id);
  const visualIds = await checkedVisualIds(ctx, caller, body.visualIds, parseVisualIds(row.visualIds));
  const cateId = row.visualType === PPT_VISUAL_TYPES.normal ? 0 : body.cateId;
  if (row.visualType !== PPT_VISUAL_TYPES.normal && row.createUserId !== null) {
    await requireOwnCategory(ctx, { userId: row.createUserId, isAdministrator: false }, row.visualType, cateId);
  }
  const ppMonth = row.visualType === PPT_VISUAL_TYPES.archive ? (body.ppMonth ?? row.ppMonth ?? currentMonth()) : (body.ppMonth ?? null);
  await updatePpt(ctx.db, id, { ppName: body.ppName, ppMonth, cateId, visualIds: JSON.stringify(visualIds), settings: JSON.stringify(body.settings) });
  return id;
}

/** Deletes a record (the creator or an administrator) with its grants to groups. */
export async function deletePpt(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireEditablePpt(ctx, caller, id);
  if ((await deletePptRow(ctx.db, id)) === 0) throw notFound(pptMessages.notFound);
  await removeGrantsOf(ctx, 'ppt', id);
}
