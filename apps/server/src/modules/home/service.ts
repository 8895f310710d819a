import { BUILTIN_WAREHOUSE_NAME, HOME_SECTION_SIZE, type Home, type HomeGuide, type HomeItem, type HomeVisit } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { DEMO_NAMES, findBoard, mayViewBoard, parseContent, requireViewableBoard } from '../board/index.ts';
import { requireViewable as requireViewableDataset } from '../dataset/index.ts';
import { findBuiltinRow } from '../datasource/index.ts';
import { grantedIds, type Caller } from '../perm/index.ts';
import { requireViewablePpt } from '../ppt/index.ts';
import {
  addFavouriteBoard,
  countOwnWork,
  findDemoBoards,
  findDemoDatasets,
  findFavouriteBoards,
  findFavouritePptIds,
  findOthersBoards,
  findVisits,
  removeFavouriteBoard,
  upsertVisit,
} from './repo.ts';

/**
 * 首页 (issue 16; docs/home.md). Every item listed is checked with the board and ppt
 * modules' own rules (mayViewBoard, requireViewablePpt), so what the user may no longer
 * see — deleted, made private, a grant revoked — drops out of every section.
 */

type BoardRow = NonNullable<Awaited<ReturnType<typeof findBoard>>>;
type ViewablePpt = Awaited<ReturnType<typeof requireViewablePpt>>;

const iso = (d: Date) => new Date(d).toISOString();

/** Records that the user opened a board's preview or a slideshow (403/404 when they may not see it). */
export async function recordVisit(ctx: AppContext, caller: Caller, visit: HomeVisit): Promise<void> {
  if (visit.kind === 'board') await requireViewableBoard(ctx, caller, visit.id);
  else await requireViewablePpt(ctx, caller, visit.id);
  await upsertVisit(ctx.db, caller.userId, visit.kind, visit.id);
}

/** Stars a board the user may see (403/404 otherwise), or takes the star away. */
export async function setBoardFavourite(ctx: AppContext, caller: Caller, boardId: number, favourite: boolean): Promise<void> {
  if (!favourite) return removeFavouriteBoard(ctx.db, caller.userId, boardId);
  await requireViewableBoard(ctx, caller, boardId);
  await addFavouriteBoard(ctx.db, caller.userId, boardId);
}

export async function getHome(ctx: AppContext, caller: Caller): Promise<Home> {
  const favourites = await findFavouriteBoards(ctx.db, caller.userId);
  const starred = new Set(favourites.map((f) => f.boardId));
  const boardItem = (row: BoardRow, time: Date): HomeItem => ({
    kind: 'board',
    id: row.id,
    title: row.title,
    boardKind: row.kind,
    boardType: parseContent(row.content).type,
    pptVisualType: null,
    boardCount: null,
    backgroundUrl: row.backgroundUrl,
    ownerName: row.createUserName,
    time: iso(time),
    favourite: starred.has(row.id),
  });
  const [recent, favouriteBoards, favouritePpts, sharedBoards, guide] = await Promise.all([
    recentItems(ctx, caller, boardItem),
    firstViewable(favourites, async (f) => {
      const row = await viewableBoard(ctx, caller, f.boardId);
      return row && boardItem(row, f.createTime);
    }),
    favouritePptItems(ctx, caller),
    sharedBoardItems(ctx, caller, boardItem),
    guideOf(ctx, caller),
  ]);
  return { recent, favouriteBoards, favouritePpts, sharedBoards, guide };
}

/** The first HOME_SECTION_SIZE items that map to something, in order (checked one by one: most answers are near the top). */
async function firstViewable<T>(rows: readonly T[], toItem: (row: T) => Promise<HomeItem | undefined>): Promise<HomeItem[]> {
  const items: HomeItem[] = [];
  for (const row of rows) {
    if (items.length >= HOME_SECTION_SIZE) break;
    const item = await toItem(row);
    if (item) items.push(item);
  }
  return items;
}

async function viewableBoard(ctx: AppContext, caller: Caller, id: number): Promise<BoardRow | undefined> {
  const row = await findBoard(ctx.db, id);
  return row && (await mayViewBoard(ctx, caller, row)) ? row : undefined;
}

/** The slideshow and its boards the user may see; undefined when it is gone or refused. */
async function viewablePpt(ctx: AppContext, caller: Caller, id: number): Promise<ViewablePpt | undefined> {
  try {
    return await requireViewablePpt(ctx, caller, id);
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) return undefined;
    throw error;
  }
}

function pptItem({ ppt, boardIds }: ViewablePpt, time: Date): HomeItem {
  return {
    kind: 'ppt',
    id: ppt.id,
    title: ppt.ppName,
    boardKind: null,
    boardType: null,
    pptVisualType: ppt.visualType,
    boardCount: boardIds.length,
    backgroundUrl: null,
    ownerName: ppt.createUserName,
    time: iso(time),
    favourite: false,
  };
}

async function recentItems(ctx: AppContext, caller: Caller, boardItem: (row: BoardRow, time: Date) => HomeItem): Promise<HomeItem[]> {
  const visits = await findVisits(ctx.db, caller.userId);
  return firstViewable(visits, async (visit) => {
    if (visit.kind === 'board') {
      const row = await viewableBoard(ctx, caller, visit.targetId);
      return row && boardItem(row, visit.visitTime);
    }
    const ppt = await viewablePpt(ctx, caller, visit.targetId);
    return ppt && pptItem(ppt, visit.visitTime);
  });
}

async function favouritePptItems(ctx: AppContext, caller: Caller): Promise<HomeItem[]> {
  const rows = await findFavouritePptIds(ctx.db, caller.userId, HOME_SECTION_SIZE);
  return firstViewable(rows, async (row) => {
    const ppt = await viewablePpt(ctx, caller, row.id);
    return ppt && pptItem(ppt, row.updateTime);
  });
}

/**
 * Boards others made that are granted to one of the user's permission groups. An
 * administrator sees every board, so for them too only the grants count (else every board
 * of the install would be "shared"); public boards are everyone's and are not listed.
 */
async function sharedBoardItems(ctx: AppContext, caller: Caller, boardItem: (row: BoardRow, time: Date) => HomeItem): Promise<HomeItem[]> {
  const asMember: Caller = { userId: caller.userId, isAdministrator: false };
  const ids: number[] = [];
  for (const kind of ['visual', 'report'] as const) {
    const granted = await grantedIds(ctx, asMember, kind);
    if (!granted.all) ids.push(...granted.ids);
  }
  const rows = await findOthersBoards(ctx.db, caller.userId, ids, HOME_SECTION_SIZE);
  return firstViewable(rows, async (r) => {
    const row = await viewableBoard(ctx, caller, r.id);
    return row && boardItem(row, r.updateTime);
  });
}

/** The guided path while the user has made nothing beyond the demo content; null once they have, or with no demo left to show. */
async function guideOf(ctx: AppContext, caller: Caller): Promise<HomeGuide | null> {
  const [demoBoards, demoDatasets] = await Promise.all([
    findDemoBoards(ctx.db, DEMO_NAMES.category, [DEMO_NAMES.salesBoard, DEMO_NAMES.reportBoard, DEMO_NAMES.productBoard]),
    findDemoDatasets(ctx.db, DEMO_NAMES.category, DEMO_NAMES.dataset),
  ]);
  const own = await countOwnWork(ctx.db, caller.userId, { boardIds: demoBoards.map((b) => b.id), datasetIds: demoDatasets.map((d) => d.id) });
  if (own > 0) return null;

  const sales = demoBoards.find((b) => b.title === DEMO_NAMES.salesBoard) ?? demoBoards[0];
  const board = sales && (await viewableBoard(ctx, caller, sales.id));
  const dataset = demoDatasets[0] && (await viewableDataset(ctx, caller, demoDatasets[0].id));
  // 数据源管理 is an administrators' page.
  const warehouse = caller.isAdministrator ? await findBuiltinRow(ctx.db) : undefined;
  const guide: HomeGuide = {
    datasource: warehouse ? { id: warehouse.id, name: warehouse.dsName || BUILTIN_WAREHOUSE_NAME } : null,
    dataset: dataset ? { id: dataset.id, name: dataset.cubeName } : null,
    board: board ? { id: board.id, title: board.title } : null,
  };
  return guide.dataset || guide.board ? guide : null;
}

async function viewableDataset(ctx: AppContext, caller: Caller, id: number) {
  try {
    return await requireViewableDataset(ctx, caller, id);
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) return undefined;
    throw error;
  }
}
