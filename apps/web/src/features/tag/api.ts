import type { ProfileCompare, Tag, TagAudienceSave, TagAudienceView, TagCountRow, TagRatioRow, TagRules, TagTreeNode, TagTreeType } from '@shutu/contracts';
import { API } from '@shutu/contracts';
import { http } from '../../shared/api.ts';

const P = API.tag;

export const tagKeys = {
  all: ['tag'] as const,
  list: (keyword: string) => ['tag', 'list', keyword] as const,
  detail: (tagId: number) => ['tag', 'detail', tagId] as const,
  months: ['tag', 'months'] as const,
  ratio: (tagId: number, month: string) => ['tag', 'ratio', tagId, month] as const,
  count: (tagId: number, start: string, end: string) => ['tag', 'count', tagId, start, end] as const,
  tree: (type: TagTreeType | 'product') => ['tag', 'tree', type] as const,
  audience: (id: number) => ['tag', 'audience', id] as const,
  compare: (ids: readonly number[]) => ['tag', 'compare', ...ids] as const,
};

export const fetchTags = (keyword = '') => http.get<Tag[]>(P.list, { keyword });
export const fetchTag = (tagId: number) => http.get<Tag>(P.detail, { tagId });
export const fetchMonths = () => http.get<string[]>(P.months);
export const fetchRatio = (tagId: number, dataDate: string) => http.get<TagRatioRow[]>(P.ratio, { tagId, dataDate });
export const fetchCount = (tagId: number, startDate: string, endDate: string) => http.get<TagCountRow[]>(P.count, { tagId, startDate, endDate });
export const fetchTree = (type: TagTreeType | 'product') =>
  type === 'product' ? http.get<TagTreeNode[]>(P.treeProduct) : http.get<TagTreeNode[]>(P.tree, { type });
export const previewAudience = (rules: TagRules) => http.post<{ size: number }>(P.audienceCount, { rules });

export const fetchTagAudience = (id: number) => http.get<TagAudienceView>(P.audience, { id });
export const saveTagAudience = (body: TagAudienceSave) => http.post<{ id: number; size: number }>(P.audience, body);
export const fetchCompare = (ids: readonly number[], type?: string, diffA?: number, diffB?: number) =>
  http.get<ProfileCompare>(P.compare, { id: ids.join(','), type, diffA, diffB });

/** The tag detail page reads its tag from local storage (spec 1 §2.3). */
const TAG_ID_KEY = 'shutu.tagId';
export function storedTagId(): number | null {
  try {
    const n = Number(localStorage.getItem(TAG_ID_KEY));
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
export function storeTagId(tagId: number): void {
  localStorage.setItem(TAG_ID_KEY, String(tagId));
}
