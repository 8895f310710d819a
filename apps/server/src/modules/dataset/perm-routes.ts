import { z } from 'zod';
import {
  API,
  authCubeDetailParamsSchema,
  authCubeDetailSchema,
  authCubeListQuerySchema,
  authCubeParamsSchema,
  authCubeSaveBatchSchema,
  cubePermFilterSaveSchema,
  cubePermFilterSchema,
  envelopeSchema,
  globalParamListQuerySchema,
  globalParamSaveSchema,
  globalParamSchema,
  globalParamTypeSaveSchema,
  globalParamTypeSchema,
  idParamSchema,
  pageSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { deleteParam, deleteParamType, listParams, listParamTypes, saveParam, saveParamType } from './params.ts';
import { authCubeDetail, authCubeList, authCubeSaveBatch, deleteCubePermFilter, listCubePermFilters, saveCubePermFilter } from './perm-filters.ts';

const tags = ['dataset'];
const paramTags = ['globalParam'];
const FILTER_ROW = { permission: 'cube_filter_row' } as const;

/**
 * Dataset permission filters (cube_filter_row; adding, deleting and rebinding for
 * administrators), the dataset tab of a group's settings (administrators) and global
 * parameters (read by every user, changed by administrators).
 */
export function registerDatasetPermRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.dataset.permFilters,
    {
      config: { access: FILTER_ROW },
      schema: {
        tags,
        summary: '数据集的权限过滤器列表（每个权限组一个）',
        params: idParamSchema,
        response: { 200: envelopeSchema(z.array(cubePermFilterSchema)) },
      },
    },
    async (request) => ok(await listCubePermFilters(ctx, sessionOf(request), request.params.id)),
  );
  app.post(
    API.dataset.permFilterSave,
    {
      config: { access: FILTER_ROW },
      schema: {
        tags,
        summary: '保存权限过滤器（新增仅管理员；带 id 为更新；可用 payload 传 JSON 的 Base64）',
        body: cubePermFilterSaveSchema,
        response: { 200: envelopeSchema(cubePermFilterSchema) },
      },
    },
    async (request) => ok(await saveCubePermFilter(ctx, sessionOf(request), request.body), zhCN.saved),
  );
  app.delete(
    API.dataset.permFilter,
    {
      config: { access: FILTER_ROW },
      schema: { tags, summary: '删除权限过滤器（仅管理员）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteCubePermFilter(ctx, sessionOf(request), request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.dataset.authCubes,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '权限组在某分类（含子分类）下已授权的数据集 id',
        params: authCubeParamsSchema,
        querystring: authCubeListQuerySchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await authCubeList(ctx, request.params.dataPermId, request.query.cubeWorkspaceId)),
  );
  app.get(
    API.dataset.authCube,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '权限组对一个数据集的授权详情（是否授权、行过滤与排除字段）',
        params: authCubeDetailParamsSchema,
        response: { 200: envelopeSchema(authCubeDetailSchema) },
      },
    },
    async (request) => ok(await authCubeDetail(ctx, request.params.dataPermId, request.params.cubeDataId)),
  );
  app.put(
    API.dataset.authCubes,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '批量保存权限组在某分类下的数据集授权（替换该分类内的授权）',
        params: authCubeParamsSchema,
        body: authCubeSaveBatchSchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await authCubeSaveBatch(ctx, request.params.dataPermId, request.body), zhCN.saved),
  );

  app.get(
    API.globalParam.types,
    {
      config: { access: 'user' },
      schema: { tags: paramTags, summary: '全局参数分类列表', response: { 200: envelopeSchema(z.array(globalParamTypeSchema)) } },
    },
    async () => ok(await listParamTypes(ctx)),
  );
  app.post(
    API.globalParam.types,
    {
      config: { access: 'admin' },
      schema: {
        tags: paramTags,
        summary: '新增或修改全局参数分类（带 id 为修改）',
        body: globalParamTypeSaveSchema,
        response: { 200: envelopeSchema(globalParamTypeSchema) },
      },
    },
    async (request) => ok(await saveParamType(ctx, request.body), zhCN.saved),
  );
  app.delete(
    API.globalParam.type,
    {
      config: { access: 'admin' },
      schema: { tags: paramTags, summary: '删除全局参数分类（分类下无参数时）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteParamType(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );
  app.get(
    API.globalParam.params,
    {
      config: { access: 'user' },
      schema: {
        tags: paramTags,
        summary: '全局参数列表（按分类、名称或 key 搜索，分页）',
        querystring: globalParamListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(globalParamSchema)) },
      },
    },
    async (request) => ok(await listParams(ctx, request.query)),
  );
  app.post(
    API.globalParam.params,
    {
      config: { access: 'admin' },
      schema: {
        tags: paramTags,
        summary: '新增或修改全局参数（带 id 为修改；key 唯一）',
        body: globalParamSaveSchema,
        response: { 200: envelopeSchema(globalParamSchema) },
      },
    },
    async (request) => ok(await saveParam(ctx, request.body), zhCN.saved),
  );
  app.delete(
    API.globalParam.param,
    {
      config: { access: 'admin' },
      schema: { tags: paramTags, summary: '删除全局参数（被数据集的全局过滤使用时拒绝）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteParam(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );
}
