import type { GlobalParam, GlobalParamSave, GlobalParamType, GlobalParamTypeSave, Page } from '@shutu/contracts';
import { API, apiPath, MAX_PAGE_SIZE } from '@shutu/contracts';
import { http, request } from '../../../shared/api.ts';

/** The manager's parameter query: paged, by category (absent: all) and name or key contains. */
export interface ParamListParams {
  current: number;
  size: number;
  typeId?: number;
  keyword?: string;
}

export const paramKeys = {
  all: ['global-param'] as const,
  types: ['global-param', 'types'] as const,
  params: ['global-param', 'params'] as const,
  list: (p: ParamListParams) => ['global-param', 'params', 'page', p] as const,
  /** Every parameter (size 10000, current 1): what a global-filter condition may use. */
  options: ['global-param', 'params', 'all'] as const,
};

export const fetchParamTypes = () => http.get<GlobalParamType[]>(API.globalParam.types);
/** Writes keep the whole result: `msg` is the server's success message. */
export const saveParamType = (body: GlobalParamTypeSave) => request<GlobalParamType>(API.globalParam.types, { method: 'POST', body });
export const deleteParamType = (id: number) => request<null>(apiPath(API.globalParam.type, { id }), { method: 'DELETE' });

export const fetchParams = (p: ParamListParams) => http.get<Page<GlobalParam>>(API.globalParam.params, { ...p });
/** Every parameter, as the dataset editor asks for them (current 1, size 10000). */
export const fetchAllParams = () => http.get<Page<GlobalParam>>(API.globalParam.params, { current: 1, size: MAX_PAGE_SIZE }).then((p) => p.records);
/** Adds a parameter, or updates it when `id` is given. */
export const saveParam = (body: GlobalParamSave) => request<GlobalParam>(API.globalParam.params, { method: 'POST', body });
export const deleteParam = (id: number) => request<null>(apiPath(API.globalParam.param, { id }), { method: 'DELETE' });
