import {
  API,
  type AudienceBody,
  type AudienceCategory,
  type AudienceDetail,
  type AudienceImportResult,
  type AudienceListItem,
  type AudiencePreviewResult,
  type AudienceRefreshItem,
  type AudienceRule,
  type CubeCategory,
  type DatasetField,
  type DatasetListItem,
  type Page,
} from '@shutu/contracts';
import { apiPath } from '@shutu/contracts';
import { download, http, request, upload } from '../../shared/api.ts';

const P = API.audience;

export const audienceKeys = {
  all: ['audience'] as const,
  list: (q: Record<string, unknown>) => ['audience', 'list', q] as const,
  detail: (id: number) => ['audience', 'detail', id] as const,
  categories: ['audience', 'categories'] as const,
  refreshes: (id: number) => ['audience', 'refreshes', id] as const,
};

export const fetchAudiences = (q: { current: number; size: number; classifyId?: number; groupName?: string }) => http.get<Page<AudienceListItem>>(P.list, q);
export const fetchAudience = (id: number) => http.get<AudienceDetail>(P.detail, { id });
export const fetchAudienceCategories = () => http.get<AudienceCategory[]>(P.categories);
export const addAudienceCategory = (name: string) => request<AudienceCategory>(P.categories, { method: 'POST', body: { name } });
export const saveAudience = (body: AudienceBody) => request<number>(P.save, { method: 'POST', body });
export const previewAudience = (defineRule: AudienceRule[]) => http.post<AudiencePreviewResult>(P.preview, { defineRule });
export const refreshAudience = (id: number) => request<null>(P.refresh, { method: 'POST', body: { id } });
export const fetchRefreshes = (id: number) => http.get<AudienceRefreshItem[]>(P.refreshes, { id });
export const setAudienceOnline = (id: number, isOnline: 1 | 2) => request<null>(P.online, { method: 'POST', body: { id, isOnline } });
export const removeAudience = (id: number) => request<null>(P.remove, { method: 'POST', body: { id } });
export const exportAudience = (id: number, name: string, failed: string) => download(`${P.export}?id=${id}`, `${name}.csv`, failed);
export const importAudience = (form: FormData) => upload<AudienceImportResult>(P.import, form);

/** The editor's left panel: every dataset the user may see and the categories (workspace paths). */
export const fetchCubeCategories = () => http.get<CubeCategory[]>(API.dataset.categories);
export const fetchCubes = () => http.get<Page<DatasetListItem>>(API.dataset.cubes, { current: 1, size: 10000 }).then((p) => p.records);
export const fetchCubeFields = (id: number) => http.get<DatasetField[]>(apiPath(API.dataset.fields, { id }));
