import type { DataSource, DataSourceColumn, DataSourceSave, DataSourceTable, DataSourceTest, DataSourceTestResult, Page } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';

export interface DataSourceListParams {
  current: number;
  size: number;
  keyword?: string;
}

export const dataSourceKeys = {
  all: ['datasource'] as const,
  list: (p: DataSourceListParams) => ['datasource', 'list', p] as const,
  one: (id: number) => ['datasource', 'one', id] as const,
  tables: (id: number) => ['datasource', 'tables', id] as const,
  columns: (id: number, schema: string, tableName: string) => ['datasource', 'columns', id, schema, tableName] as const,
};

export const fetchDataSources = (p: DataSourceListParams) => http.get<Page<DataSource>>(API.datasource.sources, { ...p });
export const fetchDataSource = (id: number) => http.get<DataSource>(apiPath(API.datasource.source, { id }));
export const createDataSource = (body: DataSourceSave) => http.post<DataSource>(API.datasource.sources, body);
export const updateDataSource = (id: number, body: DataSourceSave) => http.put<DataSource>(apiPath(API.datasource.source, { id }), body);
export const deleteDataSource = (id: number) => http.del<null>(apiPath(API.datasource.source, { id }));
/** Test calls keep the whole result: `msg` is the server's 连接成功. */
export const testSavedDataSource = (id: number) => request<DataSourceTestResult>(apiPath(API.datasource.test, { id }), { method: 'POST', body: {} });
export const testDataSourceForm = (body: DataSourceTest) => request<DataSourceTestResult>(API.datasource.testForm, { method: 'POST', body });
export const fetchTables = (id: number) => http.get<DataSourceTable[]>(apiPath(API.datasource.tables, { id }));
export const fetchColumns = (id: number, table: Pick<DataSourceTable, 'schema' | 'name'>) =>
  http.get<DataSourceColumn[]>(apiPath(API.datasource.columns, { id }), { tableName: table.name, schema: table.schema });
