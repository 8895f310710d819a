import type { Dict, DictSave, Page } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts';
import { http } from '../../shared/api.ts';

export interface DictListParams {
  current: number;
  size: number;
  query?: string;
}

export const dictKeys = {
  all: ['dict'] as const,
  parents: (p: DictListParams) => ['dict', 'parents', p] as const,
  children: (parentId: number, p: DictListParams) => ['dict', 'children', parentId, p] as const,
  one: (id: number) => ['dict', 'one', id] as const,
};

export const fetchDictParents = (p: DictListParams) => http.get<Page<Dict>>(API.dict.parents, { ...p });
export const fetchDictChildren = (parentId: number, p: DictListParams) => http.get<Page<Dict>>(API.dict.children, { parentId, ...p });
export const fetchDict = (id: number) => http.get<Dict>(apiPath(API.dict.dict, { id }));
export const createDict = (body: DictSave) => http.post<Dict>(API.dict.dicts, body);
export const updateDict = (id: number, body: DictSave) => http.put<Dict>(apiPath(API.dict.dict, { id }), body);
export const removeDicts = (ids: number[]) => http.post<null>(API.dict.remove, { ids });
