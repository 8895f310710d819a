import { z } from 'zod';
import {
  API,
  columnIdParamSchema,
  cubeCategorySaveSchema,
  cubeCategorySchema,
  datasetFieldDraftSchema,
  datasetFieldSchema,
  datasetListItemSchema,
  datasetListQuerySchema,
  datasetMessages,
  datasetSaveSchema,
  datasetSchema,
  envelopeSchema,
  fieldCheckSchema,
  idParamSchema,
  pageSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { deleteCategory, listCategories, saveCategory } from './categories.ts';
import { registerDatasetPermRoutes } from './perm-routes.ts';
import { checkFields } from './field-check.ts';
import { saveDataset } from './save.ts';
import { deleteDataset, deleteDatasetField, getDataset, listDatasetFields, listDatasets } from './service.ts';

const tags = ['dataset'];

/**
 * Datasets (spec 2 §7 "Dataset editor"): every signed-in user, on what they may see
 * (public datasets, those granted to their groups, their own); changes to a dataset by its
 * creator and administrators (access.ts). Permission filters, group-level grants and global
 * parameters are in perm-routes.ts.
 */
export function registerDatasetRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.dataset.categories,
    {
      config: { access: 'user' },
      schema: { tags, summary: '数据集分类列表（两级，parentId 为 0 的是顶级）', response: { 200: envelopeSchema(z.array(cubeCategorySchema)) } },
    },
    async () => ok(await listCategories(ctx)),
  );
  app.post(
    API.dataset.categories,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '新增或修改数据集分类（带 id 为修改；上级为 0 或其他顶级分类）',
        body: cubeCategorySaveSchema,
        response: { 200: envelopeSchema(cubeCategorySchema) },
      },
    },
    async (request) => ok(await saveCategory(ctx, sessionOf(request), request.body), zhCN.saved),
  );
  app.delete(
    API.dataset.category,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除数据集分类（无子分类且无数据集时）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteCategory(ctx, sessionOf(request), request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.dataset.cubes,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '数据集列表（按分类含子分类、名称搜索、分页；只列出可见的数据集）',
        querystring: datasetListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(datasetListItemSchema)) },
      },
    },
    async (request) => ok(await listDatasets(ctx, sessionOf(request), request.query)),
  );
  app.get(
    API.dataset.cube,
    {
      config: { access: 'user' },
      schema: { tags, summary: '数据集详情（表、关联、全局过滤、排序）', params: idParamSchema, response: { 200: envelopeSchema(datasetSchema) } },
    },
    async (request) => ok(await getDataset(ctx, sessionOf(request), request.params.id)),
  );
  app.get(
    API.dataset.fields,
    {
      config: { access: 'user' },
      schema: { tags, summary: '数据集字段列表（按 sortNum）', params: idParamSchema, response: { 200: envelopeSchema(z.array(datasetFieldSchema)) } },
    },
    async (request) => ok(await listDatasetFields(ctx, sessionOf(request), request.params.id)),
  );
  app.post(
    API.dataset.cubes,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '保存数据集（新增或带 id 修改；可用 payload 传 JSON 的 Base64），返回数据集 id',
        body: datasetSaveSchema,
        response: { 200: envelopeSchema(z.number()) },
      },
    },
    async (request) => ok(await saveDataset(ctx, sessionOf(request), request.body), zhCN.saved),
  );
  app.delete(
    API.dataset.cube,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除数据集（连同字段、权限过滤器与授权）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteDataset(ctx, sessionOf(request), request.params.id);
      return ok(null, zhCN.deleted);
    },
  );
  app.delete(
    API.dataset.field,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '删除数据集字段（被计算字段、表关联或过滤条件使用时拒绝）',
        params: columnIdParamSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await deleteDatasetField(ctx, sessionOf(request), request.params.columnId);
      return ok(null, zhCN.deleted);
    },
  );
  app.post(
    API.dataset.fieldCheck,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '字段检查：列出数据表中尚未加入数据集的字段（没有时提示 无可同步字段）',
        body: fieldCheckSchema,
        response: { 200: envelopeSchema(z.array(datasetFieldDraftSchema)) },
      },
    },
    async (request) => {
      const drafts = await checkFields(ctx, sessionOf(request), request.body);
      return ok(drafts, drafts.length === 0 ? datasetMessages.noFieldsToSync : zhCN.ok);
    },
  );
  registerDatasetPermRoutes(app, ctx);
}
