import { z } from 'zod';
import { API, envelopeSchema, passwordUpdateSchema, profileUpdateSchema, userInfoSchema, zhCN } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { changePassword, getUserInfo, updateProfile } from './service.ts';

/** Personal settings (spec 1 §2.2): every signed-in user, on their own account only. */
export function registerProfileRoutes(app: App, { db }: AppContext): void {
  app.get(
    API.profile.info,
    {
      config: { access: 'user', beforePasswordChange: true },
      schema: { tags: ['profile'], summary: '个人信息', response: { 200: envelopeSchema(userInfoSchema) } },
    },
    async (request) => ok(await getUserInfo(db, sessionOf(request))),
  );
  app.put(
    API.profile.info,
    {
      config: { access: 'user' },
      schema: { tags: ['profile'], summary: '修改个人信息', body: profileUpdateSchema, response: { 200: envelopeSchema(userInfoSchema) } },
    },
    async (request) => ok(await updateProfile(db, sessionOf(request), request.body), zhCN.infoUpdated),
  );
  app.put(
    API.profile.password,
    {
      // Also the way out of 修改初始密码: open while the initial password must still be changed.
      config: { access: 'user', beforePasswordChange: true },
      schema: { tags: ['profile'], summary: '修改密码（均为MD5摘要）', body: passwordUpdateSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await changePassword(db, sessionOf(request), request.body.oldPassword, request.body.newPassword);
      return ok(null, zhCN.passwordUpdated);
    },
  );
}
