import { z } from 'zod';
import {
  API,
  appDetailSchema,
  appFrameSchema,
  appGrantableSchema,
  appMenuSchema,
  appMessages,
  appSaveSchema,
  appSchema,
  envelopeSchema,
  frameSettingsSchema,
  groupAppAuthSaveSchema,
  idParamSchema,
  menuDeleteQuerySchema,
  menuSaveSchema,
  menuTreeSaveSchema,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { frameOf, getFrameSettings, saveFrameSettings } from './frame.ts';
import { grantableApps, groupAppAuthList, groupAppAuthSave } from './grants.ts';
import { listMenus, removeMenus, saveMenu, saveMenuTree } from './menus.ts';
import { deleteApp, getAppDetail, getOpenableApp, listEditableApps, listOpenableApps, saveApp } from './service.ts';

const tags = ['app'];
const dataPermIdParamSchema = z.object({ dataPermId: z.coerce.number().int().positive() });
const menuTree = envelopeSchema(z.array(appMenuSchema));

/**
 * Apps (spec 1 §2.12, §3, §4, §5, §7 "App"; spec 2 §7 authListByGroup / authSaveByGroup /
 * appList; spec 3 §2 full-screen frame; docs/apps.md).
 */
export function registerAppRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.app.apps,
    { config: { access: 'user' }, schema: { tags, summary: '我可编辑的应用（管理员：全部）', response: { 200: envelopeSchema(z.array(appSchema)) } } },
    async (request) => ok(await listEditableApps(ctx, sessionOf(request))),
  );
  app.post(
    API.app.apps,
    {
      config: { access: 'user' },
      schema: { tags, summary: '保存应用（无 appId 新增，带 appId 修改；菜单另存）', body: appSaveSchema, response: { 200: envelopeSchema(appDetailSchema) } },
    },
    async (request) => ok(await saveApp(ctx, sessionOf(request), request.body), appMessages.saved),
  );
  app.get(
    API.app.grantable,
    {
      config: { access: 'admin' },
      schema: { tags, summary: 'appList：可授权的应用（已发布）', response: { 200: envelopeSchema(z.array(appGrantableSchema)) } },
    },
    async () => ok(await grantableApps(ctx)),
  );
  app.get(
    API.app.mobile,
    { config: { access: 'user' }, schema: { tags, summary: '手机端：我可打开的应用', response: { 200: envelopeSchema(z.array(appSchema)) } } },
    async (request) => ok(await listOpenableApps(ctx, sessionOf(request))),
  );
  app.get(
    API.app.mobileApp,
    {
      config: { access: 'user' },
      schema: { tags, summary: '手机端：打开应用（未发布或未授权时 403）', params: idParamSchema, response: { 200: envelopeSchema(appDetailSchema) } },
    },
    async (request) => ok(await getOpenableApp(ctx, sessionOf(request), request.params.id)),
  );
  app.get(
    API.app.frame,
    { config: { access: 'user' }, schema: { tags, summary: '登录后的全屏大屏（bigdataId）或默认地址', response: { 200: envelopeSchema(appFrameSchema) } } },
    async (request) => ok(await frameOf(ctx, sessionOf(request))),
  );
  app.get(
    API.app.frameSettings,
    { config: { access: 'admin' }, schema: { tags, summary: '全屏框架的默认地址', response: { 200: envelopeSchema(frameSettingsSchema) } } },
    async () => ok(await getFrameSettings(ctx)),
  );
  app.put(
    API.app.frameSettings,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '保存全屏框架的默认地址', body: frameSettingsSchema, response: { 200: envelopeSchema(frameSettingsSchema) } },
    },
    async (request) => ok(await saveFrameSettings(ctx, request.body), appMessages.saved),
  );
  app.get(
    API.app.groupAuth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'authListByGroup：权限组已授权的应用 id',
        params: dataPermIdParamSchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await groupAppAuthList(ctx, request.params.dataPermId)),
  );
  app.put(
    API.app.groupAuth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'authSaveByGroup：保存权限组的应用授权（整体替换，只能授权已发布的应用）',
        params: dataPermIdParamSchema,
        body: groupAppAuthSaveSchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await groupAppAuthSave(ctx, request.params.dataPermId, request.body), appMessages.saved),
  );
  app.get(
    API.app.app,
    {
      config: { access: 'user' },
      schema: { tags, summary: '应用详情与菜单树（创建人或管理员）', params: idParamSchema, response: { 200: envelopeSchema(appDetailSchema) } },
    },
    async (request) => ok(await getAppDetail(ctx, sessionOf(request), request.params.id)),
  );
  app.delete(
    API.app.app,
    { config: { access: 'user' }, schema: { tags, summary: '删除应用及其菜单和授权', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await deleteApp(ctx, sessionOf(request), request.params.id);
      return ok(null, appMessages.deleted);
    },
  );
  app.get(
    API.app.menus,
    { config: { access: 'user' }, schema: { tags, summary: '菜单列表（两级树，按 sortNum）', params: idParamSchema, response: { 200: menuTree } } },
    async (request) => ok(await listMenus(ctx, sessionOf(request), request.params.id)),
  );
  app.post(
    API.app.menus,
    {
      config: { access: 'user' },
      schema: { tags, summary: '保存一个菜单（子菜单用上级的 menuId，须关联大屏）', params: idParamSchema, body: menuSaveSchema, response: { 200: menuTree } },
    },
    async (request) => ok(await saveMenu(ctx, sessionOf(request), request.params.id, request.body), appMessages.saved),
  );
  app.put(
    API.app.menus,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '保存全部菜单（按位置从 1 编 sortNum，子菜单的 parentId 为上级；未列出的菜单删除）',
        params: idParamSchema,
        body: menuTreeSaveSchema,
        response: { 200: menuTree },
      },
    },
    async (request) => ok(await saveMenuTree(ctx, sessionOf(request), request.params.id, request.body), appMessages.saved),
  );
  app.delete(
    API.app.menus,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除菜单（ids；有子菜单的不能删除）', params: idParamSchema, querystring: menuDeleteQuerySchema, response: { 200: menuTree } },
    },
    async (request) => ok(await removeMenus(ctx, sessionOf(request), request.params.id, request.query.ids), appMessages.deleted),
  );
}
