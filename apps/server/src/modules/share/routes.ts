import { z } from 'zod';
import {
  API,
  envelopeSchema,
  idParamSchema,
  pageSchema,
  shareAuthQuerySchema,
  shareAuthSaveSchema,
  shareLinkCreateSchema,
  shareLinkSchema,
  shareLinkUpdateSchema,
  shareListQuerySchema,
  shareMessages,
  shareOpenResultSchema,
  shareOpenSchema,
} from '@shutu/contracts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { bearerToken, sessionOf } from '../../platform/auth/access.ts';
import { findSession } from '../../platform/auth/session.ts';
import { ok } from '../../platform/http/envelope.ts';
import { linkBaseUrl } from '../system/index.ts';
import { openLink } from './open.ts';
import { changeLink, createLink, listLinks, removeLink, shareAuthList, shareAuthSave } from './service.ts';

const tags = ['share'];
const codeParamSchema = z.object({
  code: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/),
});

/**
 * The short link's base: 公开访问地址 (系统设置, else PUBLIC_URL); when neither is set, where the
 * browser reached us (proxies' X-Forwarded-* are trusted: app.ts).
 */
const linkBaseOf = async (ctx: AppContext, request: FastifyRequest) => (await linkBaseUrl(ctx, `${request.protocol}://${request.host}`))!;

/**
 * Share links (spec 1 §2.6, §3 "Share link", §7 "Shares"; docs/shares.md): every user shares
 * what they may see and manages their own links (administrators: all); anyone opens a link;
 * the share-authorisation panel is for administrators.
 */
export function registerShareRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.share.links,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '分享列表（我的分享；管理员看全部；按标题筛选）',
        querystring: shareListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(shareLinkSchema)) },
      },
    },
    async (request) => ok(await listLinks(ctx, sessionOf(request), request.query, await linkBaseOf(ctx, request))),
  );
  app.post(
    API.share.links,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '生成分享链接（免登录或账号匹配，可选访问密码与有效期；须能查看所分享的内容）',
        body: shareLinkCreateSchema,
        response: { 200: envelopeSchema(shareLinkSchema) },
      },
    },
    async (request) => ok(await createLink(ctx, sessionOf(request), request.body, await linkBaseOf(ctx, request)), shareMessages.created),
  );
  app.put(
    API.share.link,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '修改分享链接（用途、启用/停用、访问密码、有效期）',
        params: idParamSchema,
        body: shareLinkUpdateSchema,
        response: { 200: envelopeSchema(shareLinkSchema) },
      },
    },
    async (request) => ok(await changeLink(ctx, sessionOf(request), request.params.id, request.body, await linkBaseOf(ctx, request)), shareMessages.updated),
  );
  app.delete(
    API.share.link,
    {
      config: { access: 'user' },
      schema: { tags, summary: '删除分享链接', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await removeLink(ctx, sessionOf(request), request.params.id);
      return ok(null, shareMessages.deleted);
    },
  );
  app.post(
    API.share.open,
    {
      // Public: a login-free link is opened by anyone holding it. An account-matching link reads the caller's own session here.
      config: { access: 'public' },
      schema: {
        tags,
        summary: '打开分享链接：返回只能查看所分享内容的令牌（免登录：分享人的数据权限；账号匹配：访问者本人的数据权限）',
        params: codeParamSchema,
        body: shareOpenSchema,
        response: { 200: envelopeSchema(shareOpenResultSchema) },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      const visitor = token ? await findSession(ctx.db, token) : undefined;
      return ok(await openLink(ctx, request.params.code, request.body.password, visitor));
    },
  );
  app.get(
    API.share.auth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '权限组已授权的账号匹配分享链接 id（第三方链接）',
        querystring: shareAuthQuerySchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await shareAuthList(ctx, request.query.dataPermId)),
  );
  app.put(
    API.share.auth,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '保存权限组的分享链接授权（替换为 linkIdList；账号匹配的链接授权给权限组后只对其成员开放）',
        body: shareAuthSaveSchema,
        response: { 200: envelopeSchema(z.array(z.number())) },
      },
    },
    async (request) => ok(await shareAuthSave(ctx, request.body), shareMessages.saved),
  );
}
