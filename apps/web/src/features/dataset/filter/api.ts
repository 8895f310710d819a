import type { CubePermFilter, CubePermFilterSave } from '@shutu/contracts';
import { API, apiPath, encodeBase64Json } from '@shutu/contracts';
import { http, request } from '../../../shared/api.ts';

/** Dataset permission filters (spec 2 §7 "Dataset permission filters"). */
export const permFilterKeys = {
  list: (cubeDataId: number) => ['dataset', 'perm-filters', cubeDataId] as const,
};

/** cubePremList: the dataset's filters, one per permission group. */
export const fetchPermFilters = (cubeDataId: number) => http.get<CubePermFilter[]>(apiPath(API.dataset.permFilters, { id: cubeDataId }));

/** cubePremSave: the body travels as `{ payload: Base64 of the JSON }`; answers the saved filter and the server's msg. */
export const savePermFilter = (body: CubePermFilterSave) =>
  request<CubePermFilter>(API.dataset.permFilterSave, { method: 'POST', body: { payload: encodeBase64Json(body) } });

/** cubePremSDel: administrators only. */
export const deletePermFilter = (id: number) => request<null>(apiPath(API.dataset.permFilter, { id }), { method: 'DELETE' });
