import type {
  CubeCategory,
  CubePreview,
  CubePreviewResult,
  DataSourceColumn,
  DataSourceTable,
  Dataset,
  DatasetField,
  DatasetFieldDraft,
  DataSourceType,
  DatasetPreview,
  FieldCheck,
  FunctionList,
  GlobalParam,
  DatasetSave,
  FileTable,
  FormulaCheck,
  FormulaCheckResult,
  MyPermGroup,
  Page,
  SqlView,
  UsableDataSource,
} from '@shutu/contracts';
import { API, apiPath, encodeBase64Json } from '@shutu/contracts';
import { http, request } from '../../../shared/api.ts';

export const editorKeys = {
  detail: (id: number) => ['dataset', 'editor', 'detail', id] as const,
  fields: (id: number) => ['dataset', 'editor', 'fields', id] as const,
  categories: ['dataset', 'categories'] as const,
  usable: ['datasource', 'usable'] as const,
  tables: (dsId: number) => ['dataset', 'editor', 'tables', dsId] as const,
  files: (dsId: number) => ['dataset', 'editor', 'files', dsId] as const,
  views: (dsId: number) => ['dataset', 'editor', 'views', dsId] as const,
  myGroups: ['perm', 'my-groups'] as const,
  functions: (dsType: DataSourceType) => ['query', 'functions', dsType] as const,
  globalParams: ['global-param', 'params', 'all'] as const,
};

export const fetchDataset = (id: number) => http.get<Dataset>(apiPath(API.dataset.cube, { id }));
export const fetchDatasetFields = (id: number) => http.get<DatasetField[]>(apiPath(API.dataset.fields, { id }));
export const fetchCategories = () => http.get<CubeCategory[]>(API.dataset.categories);
export const fetchUsableSources = () => http.get<UsableDataSource[]>(API.datasource.usable);
export const fetchSourceTables = (dsId: number) => http.get<DataSourceTable[]>(apiPath(API.datasource.tables, { id: dsId }));
export const fetchFileTables = (dsId: number) => http.get<FileTable[]>(API.fileTable.tables, { dsId });
export const fetchSqlViews = (dsId: number) => http.get<SqlView[]>(API.sqlView.views, { datasourceId: dsId });
export const fetchColumns = (dsId: number, tableName: string, schema?: string | null) =>
  http.get<DataSourceColumn[]>(apiPath(API.datasource.columns, { id: dsId }), { tableName, schema: schema ?? undefined });
export const fetchMyGroups = () => http.get<MyPermGroup[]>(API.perm.myGroups);

/** Save cube: the body travels as `{ payload: Base64 of the JSON }` (spec §7); answers the id. */
export const saveDataset = (body: DatasetSave) => request<number>(API.dataset.cubes, { method: 'POST', body: { payload: encodeBase64Json(body) } });
export const deleteDatasetField = (columnId: number) => request<null>(apiPath(API.dataset.field, { columnId }), { method: 'DELETE' });
/** A saved dataset's rows as the caller may read them (their groups' filters and hidden columns). */
export const previewSavedDataset = (body: DatasetPreview) => http.post<CubePreviewResult>(API.dataset.preview, body);
export const previewModel = (body: CubePreview) => http.post<CubePreviewResult>(API.query.preview, { payload: encodeBase64Json(body) });
export const checkFormula = (body: FormulaCheck) => http.post<FormulaCheckResult>(API.query.formulaCheck, { payload: encodeBase64Json(body) });

/** Field check: the physical columns of the tables not yet in the dataset, as field drafts (empty: 无可同步字段). */
export const checkFields = (body: FieldCheck) => http.post<DatasetFieldDraft[]>(API.dataset.fieldCheck, { payload: encodeBase64Json(body) });
/** Functions by data source type, with their categories. */
export const fetchFunctions = (dsType: DataSourceType) => http.get<FunctionList>(API.query.functions, { dsType });
/** All global parameters (current 1, size 10000). */
export const fetchGlobalParams = () => http.get<Page<GlobalParam>>(API.globalParam.params, { current: 1, size: 10000 });
