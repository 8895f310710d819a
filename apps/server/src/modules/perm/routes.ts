import { z } from 'zod';
import {
  API,
  envelopeSchema,
  idParamSchema,
  myPermGroupSchema,
  pageSchema,
  permGroupPageQuerySchema,
  permGroupSaveSchema,
  permGroupSchema,
  permTypeSaveSchema,
  permTypeSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { deleteGroup, deleteType, getGroup, groupPage, listTypes, myGroups, saveGroup, saveType } from './groups-service.ts';

const tags = ['perm'];

/** Routes whose successful writes can change who belongs to a group or what a group may use. */
/**
 * Permission groups and their grants (spec 2 §7 "Permission groups and other grants",
 * "Data-source table authorisation"): administrators manage them; every signed-in user
 * may ask which groups they belong to.
 */
export function registerPermRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.perm.types,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '权限组分类列表', response: { 200: envelopeSchema(z.array(permTypeSchema)) } },
    },
    async () => ok(await listTypes(ctx)),
  );
  app.post(
    API.perm.types,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '新增或修改权限组分类（带 id 为修改）', body: permTypeSaveSchema, response: { 200: envelopeSchema(permTypeSchema) } },
    },
    async (request) => ok(await saveType(ctx, request.body), zhCN.saved),
  );
  app.delete(
    API.perm.type,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '删除权限组分类（分类下无权限组时）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteType(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.perm.groups,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '权限组分页（名称搜索、按分类筛选）',
        querystring: permGroupPageQuerySchema,
        response: { 200: envelopeSchema(pageSchema(permGroupSchema)) },
      },
    },
    async (request) => ok(await groupPage(ctx, request.query)),
  );
  app.get(
    API.perm.group,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '权限组详情', params: idParamSchema, response: { 200: envelopeSchema(permGroupSchema) } },
    },
    async (request) => ok(await getGroup(ctx, request.params.id)),
  );
  app.post(
    API.perm.groups,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '新增或修改权限组（带 id 为修改；成员名称以系统当前名称为准）',
        body: permGroupSaveSchema,
        response: { 200: envelopeSchema(permGroupSchema) },
      },
    },
    async (request) => ok(await saveGroup(ctx, request.body), zhCN.saved),
  );
  app.delete(
    API.perm.group,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '删除权限组（连同其全部授权）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteGroup(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.perm.myGroups,
    {
      config: { access: 'user' },
      schema: { tags, summary: '我所在的权限组', response: { 200: envelopeSchema(z.array(myPermGroupSchema)) } },
    },
    async (request) => ok(await myGroups(ctx, sessionOf(request).userId)),
  );
}
