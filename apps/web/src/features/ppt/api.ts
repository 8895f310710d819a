import type { BoardAuth, BoardAuthSave, Page, Ppt, PptCategory, PptDetail, PptSave } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts/api';
import { MAX_PAGE_SIZE } from '@shutu/contracts/constants';
import { http, request } from '../../shared/api.ts';

/** The list's query: which list (0 slideshows, 1 favourites, 2 archives), page, category (-1: all), name contains. */
export interface PptListParams {
  visualType: 0 | 1 | 2;
  current: number;
  size?: number;
  cateId?: number;
  ppName?: string;
}

export const pptKeys = {
  all: ['ppt'] as const,
  listAll: ['ppt', 'list'] as const,
  list: (p: PptListParams) => ['ppt', 'list', p] as const,
  detail: (id: number) => ['ppt', 'detail', id] as const,
  categoriesAll: ['ppt', 'categories'] as const,
  categories: (visualType: 1 | 2) => ['ppt', 'categories', visualType] as const,
  auth: (id: number) => ['ppt', 'auth', id] as const,
  groupAuthAll: ['ppt', 'group-auth'] as const,
  groupAuth: (groupId: number) => ['ppt', 'group-auth', groupId] as const,
};

export const fetchPpts = ({ visualType, current, size = 20, cateId, ppName }: PptListParams) =>
  http.get<Page<Ppt>>(API.ppt.slideshows, {
    visualType,
    current,
    size,
    cateId: cateId === undefined || cateId < 0 ? undefined : cateId,
    ppName: ppName?.trim() || undefined,
  });
/** Every slideshow the caller may see (the grant tab: administrators see all). */
export const fetchAllPpts = () => fetchPpts({ visualType: 0, current: 1, size: MAX_PAGE_SIZE }).then((p) => p.records);

export const fetchPptDetail = (id: number) => http.get<PptDetail>(apiPath(API.ppt.slideshow, { id }));
/** Create (no id) or update; returns the saved record. Writes keep the whole result: `msg` is the server's success message. */
export const savePpt = (body: PptSave) => request<Ppt>(API.ppt.slideshows, { method: 'POST', body });
export const deletePpt = (id: number) => request<null>(apiPath(API.ppt.slideshow, { id }), { method: 'DELETE' });

/** 默认分类 (id 0) first, then the caller's own. */
export const fetchPptCategories = (visualType: 1 | 2) => http.get<PptCategory[]>(API.ppt.categories, { visualType });
export const savePptCategory = (body: { id?: number | null; visualType: 1 | 2; classifyName: string }) =>
  request<PptCategory>(API.ppt.categories, { method: 'POST', body });
export const deletePptCategory = (id: number) => request<null>(apiPath(API.ppt.category, { id }), { method: 'DELETE' });

export const fetchPptAuth = (id: number) => http.get<BoardAuth>(apiPath(API.ppt.auth, { id }));
export const savePptAuth = (id: number, body: BoardAuthSave) => request<BoardAuth>(apiPath(API.ppt.auth, { id }), { method: 'PUT', body });

export const fetchGroupPptAuth = (groupId: number) => http.get<number[]>(apiPath(API.ppt.groupAuth, { dataPermId: groupId }));
export const saveGroupPptAuth = (groupId: number, pptIdList: number[]) =>
  request<number[]>(apiPath(API.ppt.groupAuth, { dataPermId: groupId }), { method: 'PUT', body: { pptIdList } });
