import type {
  AudienceListItem,
  Page,
  ProfileCompare,
  Tag,
  TagAudienceSave,
  TagAudienceView,
  TagCountRow,
  TagRatioRow,
  TagRules,
  TagTreeNode,
  TagTreeType,
} from '@shutu/contracts';
import { API, shiftMonth, TAG_RATIO_MAX_STEPS } from '@shutu/contracts';
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
/** The ratio of `month`, or of the month before when it has no data, and so on (spec 1 §4), at most TAG_RATIO_MAX_STEPS back. */
export async function fetchRatioSteppingBack(tagId: number, asked: string): Promise<{ month: string; rows: TagRatioRow[] }> {
  let current = asked;
  for (let step = 0; ; step++) {
    const rows = await fetchRatio(tagId, current);
    if (rows.length > 0 || step >= TAG_RATIO_MAX_STEPS) return { month: rows.length > 0 ? current : asked, rows };
    current = shiftMonth(current, 1);
  }
}
export const fetchCount = (tagId: number, startDate: string, endDate: string) => http.get<TagCountRow[]>(P.count, { tagId, startDate, endDate });
export const fetchTree = (type: TagTreeType | 'product') =>
  type === 'product' ? http.get<TagTreeNode[]>(P.treeProduct) : http.get<TagTreeNode[]>(P.tree, { type });
export const previewAudience = (rules: TagRules, importId: number | null) => http.post<{ size: number }>(P.audienceCount, { rules, importId });
/** Imported groups (part A's audience list, kind import) a tag audience can be restricted to. */
export const fetchImportGroups = () =>
  http.get<Page<AudienceListItem>>(API.audience.list, { current: 1, size: 10000, kind: 'import' }).then((p) => p.records.filter((a) => a.status === 'done'));

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
