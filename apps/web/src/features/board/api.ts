import type {
  BoardAuth,
  BoardAuthSave,
  BoardCategory,
  BoardCategorySave,
  BoardInfoSave,
  BoardKind,
  BoardListItem,
  BoardType,
  Page,
  PermGroup,
} from '@shutu/contracts';
import { ALL_CATEGORIES, API, apiPath, BOARD_PAGE_SIZE, MAX_PAGE_SIZE } from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';

/** The list's query: kind, page, category (-1: all, left out of the request), title contains. */
export interface BoardListParams {
  kind: BoardKind;
  current: number;
  size?: number;
  categoryId?: number;
  title?: string;
}

export const boardKeys = {
  all: ['board'] as const,
  categoriesAll: ['board', 'categories'] as const,
  categories: (kind: BoardKind) => ['board', 'categories', kind] as const,
  listAll: ['board', 'list'] as const,
  list: (p: BoardListParams) => ['board', 'list', p] as const,
  /** Every board of a category (the grant tab). */
  listInCategory: (kind: BoardKind, categoryId: number) => ['board', 'list', 'all', kind, categoryId] as const,
  auth: (id: number) => ['board', 'auth', id] as const,
  /** Group-level authorisation (the 可视化大屏 / 自助报表 tabs of 权限设置). */
  groupAuthAll: ['board', 'group-auth'] as const,
  groupAuth: (kind: BoardKind, groupId: number, categoryId: number) => ['board', 'group-auth', kind, groupId, categoryId] as const,
  allGroups: ['board', 'perm-groups'] as const,
};

export const fetchBoardCategories = (kind: BoardKind) => http.get<BoardCategory[]>(API.board.categories, { kind });
/** Writes keep the whole result: `msg` is the server's success message. */
export const saveBoardCategory = (body: BoardCategorySave) => request<BoardCategory>(API.board.categories, { method: 'POST', body });
export const deleteBoardCategory = (id: number) => request<null>(apiPath(API.board.category, { id }), { method: 'DELETE' });

export const fetchBoards = ({ kind, current, size = BOARD_PAGE_SIZE, categoryId, title }: BoardListParams) =>
  http.get<Page<BoardListItem>>(API.board.boards, {
    kind,
    current,
    size,
    categoryId: categoryId === undefined || categoryId === ALL_CATEGORIES ? undefined : categoryId,
    title: title?.trim() || undefined,
  });
/** Every board of a category (its sub-categories included) as one page (size 10000). */
export const fetchAllBoards = (kind: BoardKind, categoryId: number) =>
  fetchBoards({ kind, current: 1, size: MAX_PAGE_SIZE, categoryId }).then((p) => p.records);

export const saveBoardInfo = (id: number, body: BoardInfoSave) => request<BoardListItem>(apiPath(API.board.info, { id }), { method: 'PUT', body });
export const deleteBoard = (id: number) => request<null>(apiPath(API.board.board, { id }), { method: 'DELETE' });
export const copyBoard = (id: number) => request<BoardListItem>(apiPath(API.board.copy, { id }), { method: 'POST', body: {} });
/** The ids in their new order, as the spec's comma string. */
export const sortBoards = (kind: BoardKind, ids: readonly number[]) => request<null>(API.board.sort, { method: 'PUT', body: { kind, ids: ids.join(',') } });

export const fetchBoardAuth = (id: number) => http.get<BoardAuth>(apiPath(API.board.auth, { id }));
/** Public sends an empty group list. */
export const saveBoardAuth = (id: number, body: BoardAuthSave) => request<unknown>(apiPath(API.board.auth, { id }), { method: 'PUT', body });

/** Every permission group (page 1, size 10000), for the permission-group config dialog. */
export const fetchAllPermGroups = () => http.get<Page<PermGroup>>(API.perm.groups, { current: 1, size: MAX_PAGE_SIZE }).then((p) => p.records);

/** The group's granted boards within a category (report-auth list). */
export const fetchGroupBoardAuth = (kind: BoardKind, groupId: number, reportCategoryId: number) =>
  http.get<number[]>(apiPath(API.board.groupAuth, { dataPermId: groupId }), { kind, reportCategoryId });
/** Replaces the group's grants within the category (report-auth save). */
export const saveGroupBoardAuth = (kind: BoardKind, groupId: number, reportCategoryId: number, selfReportIdList: number[]) =>
  request<unknown>(apiPath(API.board.groupAuth, { dataPermId: groupId }), { method: 'PUT', body: { kind, reportCategoryId, selfReportIdList } });

/** Where the editors open (a new tab): by id, or a new board in a category (`cg`; left out for 全部). */
export function editorPath(kind: BoardKind, type: BoardType, q: { id: number } | { categoryId: number }): string {
  const page = type === 'quick' ? 'quickEdit' : 'bigdataEdit';
  const base = `/newbi/${kind}/${page}`;
  if ('id' in q) return `${base}?id=${q.id}`;
  return q.categoryId > 0 ? `${base}?cg=${q.categoryId}` : base;
}

export const previewPath = (id: number) => `/newbi/preview/${id}`;
