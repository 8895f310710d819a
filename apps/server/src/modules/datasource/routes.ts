import { z } from 'zod';
import {
  API,
  dataSourceColumnSchema,
  dataSourceColumnsQuerySchema,
  dataSourceListQuerySchema,
  dataSourceSaveSchema,
  dataSourceSchema,
  dataSourceTableSchema,
  dataSourceTestResultSchema,
  dataSourceTestSchema,
  envelopeSchema,
  idParamSchema,
  pageSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../platform/http/envelope.ts';
import { closeDataSourceDrivers, getDataSource } from './registry.ts';
import {
  createDataSource,
  deleteDataSource,
  listColumns,
  listDataSources,
  listTables,
  testDataSourceForm,
  testSavedDataSource,
  updateDataSource,
} from './service.ts';

const tags = ['datasource'];

/**
 * Data-source management (issue 3 "Connectors"): administrators only, reading routes
 * included. Non-administrators will list tables through data-source grants (issue 4).
 */
export function registerDataSourceRoutes(app: App, ctx: AppContext): void {
  app.addHook('onClose', () => closeDataSourceDrivers(ctx));

  app.get(
    API.datasource.sources,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '数据源列表（名称、备注、地址搜索）',
        querystring: dataSourceListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(dataSourceSchema)) },
      },
    },
    async (request) => ok(await listDataSources(ctx, request.query)),
  );
  app.get(
    API.datasource.source,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '数据源详情（不含密码）', params: idParamSchema, response: { 200: envelopeSchema(dataSourceSchema) } },
    },
    async (request) => ok(await getDataSource(ctx, request.params.id)),
  );
  app.post(
    API.datasource.sources,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '新增数据源', body: dataSourceSaveSchema, response: { 200: envelopeSchema(dataSourceSchema) } },
    },
    async (request) => ok(await createDataSource(ctx, request.body), zhCN.saved),
  );
  app.put(
    API.datasource.source,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '修改数据源（密码留空则保持不变）',
        params: idParamSchema,
        body: dataSourceSaveSchema,
        response: { 200: envelopeSchema(dataSourceSchema) },
      },
    },
    async (request) => ok(await updateDataSource(ctx, request.params.id, request.body), zhCN.saved),
  );
  app.delete(
    API.datasource.source,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '删除数据源（内置数据仓库不可删除）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteDataSource(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );
  app.post(
    API.datasource.test,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '测试已保存数据源的连接', params: idParamSchema, response: { 200: envelopeSchema(dataSourceTestResultSchema) } },
    },
    async (request) => ok(await testSavedDataSource(ctx, request.params.id), zhCN.dsConnected),
  );
  app.post(
    API.datasource.testForm,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '测试未保存表单的连接', body: dataSourceTestSchema, response: { 200: envelopeSchema(dataSourceTestResultSchema) } },
    },
    async (request) => ok(await testDataSourceForm(ctx, request.body), zhCN.dsConnected),
  );
  app.get(
    API.datasource.tables,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '数据源的表与视图（含注释）', params: idParamSchema, response: { 200: envelopeSchema(z.array(dataSourceTableSchema)) } },
    },
    async (request) => ok(await listTables(ctx, request.params.id)),
  );
  app.get(
    API.datasource.columns,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '数据表的字段（名称、注释、类型）',
        params: idParamSchema,
        querystring: dataSourceColumnsQuerySchema,
        response: { 200: envelopeSchema(z.array(dataSourceColumnSchema)) },
      },
    },
    async (request) => ok(await listColumns(ctx, request.params.id, request.query)),
  );
}
