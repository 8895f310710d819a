import {
  apiPath,
  encodeBase64Json,
  type DataApi,
  type DataApiAccessKey,
  type DataApiCallLog,
  type DataApiCategory,
  type DataApiListQuery,
  type DataApiRunResult,
  type DataApiSave,
  type DataApiSettings,
  type DataApiSettingsSave,
  type DataSourceColumn,
  type DataSourceTable,
  type Page,
  type UsableDataSource,
} from '@shutu/contracts';
import { API, getToken, http, request } from '../../shared/api.ts';

const P = API.dataApi;

export const dataApiKeys = {
  all: ['dataapi'] as const,
  categories: ['dataapi', 'categories'] as const,
  list: (query: Partial<DataApiListQuery>) => ['dataapi', 'list', query] as const,
  detail: (ref: ApiRef) => ['dataapi', 'detail', ref] as const,
  keys: ['dataapi', 'keys'] as const,
  logs: (apiId: number | undefined, current: number, size: number) => ['dataapi', 'logs', apiId, current, size] as const,
  stats: ['dataapi', 'stats'] as const,
  settings: ['dataapi', 'settings'] as const,
  sources: ['dataapi', 'sources'] as const,
  tables: (dsId: number) => ['dataapi', 'tables', dsId] as const,
  columns: (dsId: number, table: string) => ['dataapi', 'columns', dsId, table] as const,
  openapi: ['dataapi', 'openapi'] as const,
};

/** How an editor is opened: ?id= or ?apiKey= (spec 2 §2). */
export type ApiRef = { id: number } | { apiKey: string };

export type DataApiSaveBody = DataApiSave & { id?: number | null };

export const fetchCategories = () => http.get<DataApiCategory[]>(P.categories);
export const saveCategory = (id: number | null, categoryName: string) =>
  id === null ? http.post<DataApiCategory>(P.categories, { categoryName }) : http.put<DataApiCategory>(apiPath(P.category, { id }), { categoryName });
export const deleteCategory = (id: number) => request<null>(apiPath(P.category, { id }), { method: 'DELETE' });

export const fetchDataApis = (query: Partial<DataApiListQuery>) => http.get<Page<DataApi>>(P.apis, query as Record<string, string | number | undefined>);
export const fetchDataApi = (ref: ApiRef) =>
  'id' in ref ? http.get<DataApi>(apiPath(P.api, { id: ref.id })) : http.get<DataApi>(apiPath(P.byKey, { apiKey: ref.apiKey }));
/** dataapiSubmit in the spec's form: Base64 of the JSON, queryParam as JSON text (spec 2 §7). */
export const saveDataApi = (body: DataApiSaveBody) =>
  request<DataApi>(P.apis, {
    method: 'POST',
    body: { payload: encodeBase64Json(body.apiType === 3 ? { ...body, queryParam: JSON.stringify(body.queryParam ?? []) } : body) },
  });
export const deleteDataApi = (id: number) => request<null>(apiPath(P.api, { id }), { method: 'DELETE' });
export const copyDataApi = (id: number, apiKey?: string) => request<DataApi>(apiPath(P.copy, { id }), { method: 'POST', body: apiKey ? { apiKey } : {} });
export const setDataApiStatus = (id: number, apiStatus: 0 | 1 | 2) => request<DataApi>(apiPath(P.status, { id }), { method: 'PUT', body: { apiStatus } });
/** openurl: the saved API run with these parameter values (type 2 also sends them as one apiParam JSON string). */
export const previewDataApi = (apiKey: string, params: Record<string, unknown>, apiType: number) =>
  http.post<DataApiRunResult>(P.preview, { apiKey, params, ...(apiType === 2 ? { apiParam: JSON.stringify(params) } : {}) });

/** 保存为枚举字典: keyCode and content (the tree's JSON text); saving a name again replaces it. */
export const saveApiDict = (body: { keyCode: string; content: string; apiId: number | null }) => request<{ id: number }>(P.dicts, { method: 'POST', body });

export const fetchAccessKeys = () => http.get<DataApiAccessKey[]>(P.keys);
export interface AccessKeyForm {
  keyName: string;
  apiIds: number[];
  rateLimit: number;
  enabled?: boolean;
}
export const createAccessKey = (body: AccessKeyForm) => request<DataApiAccessKey & { secret: string }>(P.keys, { method: 'POST', body });
export const updateAccessKey = (id: number, body: Partial<AccessKeyForm>) => request<DataApiAccessKey>(apiPath(P.key, { id }), { method: 'PUT', body });
export const deleteAccessKey = (id: number) => request<null>(apiPath(P.key, { id }), { method: 'DELETE' });
export const fetchCallLogs = (apiId: number | undefined, current: number, size: number) => http.get<Page<DataApiCallLog>>(P.logs, { apiId, current, size });
export interface CallStat {
  apiId: number;
  apiKey: string;
  calls: number;
  failures: number;
  p95Ms: number | null;
}
export const fetchCallStats = () => http.get<CallStat[]>(P.stats);
export const fetchApiSettings = () => http.get<DataApiSettings>(P.settings);
export const saveApiSettings = (body: DataApiSettingsSave) => request<DataApiSettings>(P.settings, { method: 'PUT', body });

/** The data sources the user may build on (administrators: all), their tables and columns. */
export const fetchUsableSources = () => http.get<UsableDataSource[]>(API.datasource.usable);
export const fetchSourceTables = (dsId: number) => http.get<DataSourceTable[]>(apiPath(API.datasource.tables, { id: dsId }));
export const fetchSourceColumns = (dsId: number, table: string) => {
  const [schema, name] = table.includes('.') ? [table.slice(0, table.indexOf('.')), table.slice(table.indexOf('.') + 1)] : [undefined, table];
  return http.get<DataSourceColumn[]>(apiPath(API.datasource.columns, { id: dsId }), { tableName: name, schema });
};

/** The OpenAPI document is served bare (not in the envelope), behind the same bearer token. */
export async function fetchOpenApi(): Promise<OpenApiDocument> {
  const token = getToken();
  const response = await fetch(P.openapi, { headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  const body = (await response.json()) as OpenApiDocument & { msg?: string };
  if (!response.ok) throw new Error(body.msg || `HTTP ${response.status}`);
  return body;
}

export interface OpenApiSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  default?: unknown;
  description?: string;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  $ref?: string;
}
export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: OpenApiSchema;
}
export interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: OpenApiSchema }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string; in?: string; name?: string; description?: string }> };
}
