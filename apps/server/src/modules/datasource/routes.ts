import { z } from 'zod';
import {
  API,
  dataSourceColumnSchema,
  dataSourceColumnsQuerySchema,
  dataSourceGrantSaveSchema,
  dataSourceGrantSchema,
  dataSourceListQuerySchema,
  dataSourceSaveSchema,
  dataSourceSchema,
  dataSourceTableSchema,
  dataSourceTestResultSchema,
  dataSourceTestSchema,
  envelopeSchema,
  idParamSchema,
  pageSchema,
  permGrantParamsSchema,
  usableDataSourceSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { assertSourceUsable, assertTablesUsable, filterUsableTables } from './table-access.ts';
import { closeDataSourceDrivers, getDataSource } from './registry.ts';
import { listDataSourceGrants, saveDataSourceGrant } from './table-grants.ts';
import {
  createDataSource,
  deleteDataSource,
  listColumns,
  listDataSources,
  listTables,
  listUsableSources,
  testDataSourceForm,
  testSavedDataSource,
  updateDataSource,
} from './service.ts';

const tags = ['datasource'];

/**
 * Data-source management (issue 3 "Connectors"): administrators only. Building on a source
 * (its usable list, tables and columns) is open to every user, limited to the tables granted
 * to the user's permission groups (issue 4; table-access.ts).
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
    API.datasource.usable,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '可用于建数据集的数据源（管理员：全部；其他用户：有授权数据表的）',
        response: { 200: envelopeSchema(z.array(usableDataSourceSchema)) },
      },
    },
    async (request) => ok(await listUsableSources(ctx, sessionOf(request))),
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
      config: { access: 'user' },
      schema: {
        tags,
        summary: '数据源的表与视图（含注释；非管理员只看到授权给其权限组的表和自己上传的文件表）',
        params: idParamSchema,
        response: { 200: envelopeSchema(z.array(dataSourceTableSchema)) },
      },
    },
    async (request) => {
      const caller = sessionOf(request);
      await assertSourceUsable(ctx, caller, request.params.id);
      return ok(await filterUsableTables(ctx, caller, request.params.id, await listTables(ctx, request.params.id)));
    },
  );
  app.get(
    API.datasource.columns,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '数据表的字段（名称、注释、类型；非管理员须有该表的授权）',
        params: idParamSchema,
        querystring: dataSourceColumnsQuerySchema,
        response: { 200: envelopeSchema(z.array(dataSourceColumnSchema)) },
      },
    },
    async (request) => {
      const { schema, tableName } = request.query;
      await assertTablesUsable(ctx, sessionOf(request), request.params.id, [{ schema: schema ?? null, name: tableName, quoted: true }]);
      return ok(await listColumns(ctx, request.params.id, request.query));
    },
  );

  // Tables granted to a permission group (its 数据源 tab): administrators only.
  app.get(
    API.perm.dataSourceGrants,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '权限组的数据源与数据表授权', params: idParamSchema, response: { 200: envelopeSchema(z.array(dataSourceGrantSchema)) } },
    },
    async (request) => ok(await listDataSourceGrants(ctx, request.params.id)),
  );
  app.put(
    API.perm.dataSourceGrant,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存权限组在一个数据源上的数据表授权（空列表为移除该数据源）',
        params: permGrantParamsSchema,
        body: dataSourceGrantSaveSchema,
        response: { 200: envelopeSchema(z.array(dataSourceGrantSchema)) },
      },
    },
    async (request) =>
      ok(await saveDataSourceGrant(ctx, request.params.id, request.params.datasourceId, request.body.tableNames, request.body.writable), zhCN.saved),
  );
}
