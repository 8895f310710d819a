import { z } from 'zod';
import { API, envelopeSchema, loginRequestSchema, loginResponseSchema, userInfoSchema, zhCN } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { revokeToken } from '../../platform/auth/tokens.ts';
import { ok } from '../../platform/http/envelope.ts';
import { getUserInfo } from '../profile/index.ts';
import { login } from './service.ts';

export function registerAuthRoutes(app: App, { db, config }: AppContext): void {
  app.post(
    API.auth.login,
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: '登录（密码为MD5摘要）',
        security: [],
        body: loginRequestSchema,
        response: { 200: envelopeSchema(loginResponseSchema) },
      },
    },
    async (request) => ok(await login(db, config, request.body.account, request.body.password), '登录成功'),
  );
  app.post(
    API.auth.logout,
    { config: { access: 'user', beforePasswordChange: true }, schema: { tags: ['auth'], summary: '退出登录', response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await revokeToken(db, sessionOf(request).token);
      return ok(null, zhCN.loggedOut);
    },
  );
  app.get(
    API.auth.info,
    {
      config: { access: 'user', beforePasswordChange: true },
      schema: { tags: ['auth'], summary: '当前用户信息', response: { 200: envelopeSchema(userInfoSchema) } },
    },
    async (request) => ok(await getUserInfo(db, sessionOf(request))),
  );
}
