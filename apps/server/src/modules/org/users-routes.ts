import { z } from 'zod';
import {
  API,
  envelopeSchema,
  idParamSchema,
  pageSchema,
  resetPasswordSchema,
  userCreateSchema,
  userListQuerySchema,
  userSchema,
  userStatusSchema,
  userUpdateSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { createUser, listUsers, resetPassword, setUserStatus, updateUser } from './users-service.ts';

const tags = ['org'];

/** User administration: administrators only. */
export function registerUserRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    API.org.users,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '用户列表（关键字、部门含下级）', querystring: userListQuerySchema, response: { 200: envelopeSchema(pageSchema(userSchema)) } },
    },
    async (request) => ok(await listUsers(db, request.query)),
  );
  app.post(
    API.org.users,
    { config: { access: 'admin' }, schema: { tags, summary: '新增用户', body: userCreateSchema, response: { 200: envelopeSchema(userSchema) } } },
    async (request) => ok(await createUser(ctx, request.body), zhCN.saved),
  );
  app.put(
    API.org.user,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '修改用户', params: idParamSchema, body: userUpdateSchema, response: { 200: envelopeSchema(userSchema) } },
    },
    async (request) => ok(await updateUser(ctx, sessionOf(request), request.params.id, request.body), zhCN.saved),
  );
  app.put(
    API.org.userStatus,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '启用或停用用户', params: idParamSchema, body: userStatusSchema, response: { 200: envelopeSchema(userSchema) } },
    },
    async (request) => {
      const { status } = request.body;
      const user = await setUserStatus(db, sessionOf(request), request.params.id, status);
      return ok(user, status === 1 ? zhCN.userEnabled : zhCN.userDisabled);
    },
  );
  app.put(
    API.org.userPassword,
    {
      config: { access: 'admin' },
      schema: { tags, summary: '重置用户密码（MD5摘要）', params: idParamSchema, body: resetPasswordSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await resetPassword(db, sessionOf(request), request.params.id, request.body.password);
      return ok(null, zhCN.passwordReset);
    },
  );
}
