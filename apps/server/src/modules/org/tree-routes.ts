import { z } from 'zod';
import {
  API,
  PERMISSIONS,
  departmentNodeSchema,
  departmentSaveSchema,
  departmentSchema,
  envelopeSchema,
  idParamSchema,
  permissionSchema,
  roleNodeSchema,
  roleSaveSchema,
  roleSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../platform/http/envelope.ts';
import { createDepartment, deleteDepartment, departmentTree, updateDepartment } from './depts-service.ts';
import { createRole, deleteRole, roleTree, updateRole } from './roles-service.ts';

const tags = ['org'];
const admin = { access: 'admin' } as const;

/** Department and role trees and the permission catalogue: administrators only. */
export function registerTreeRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    API.org.departments,
    { config: admin, schema: { tags, summary: '部门树', response: { 200: envelopeSchema(z.array(departmentNodeSchema)) } } },
    async () => ok(await departmentTree(db)),
  );
  app.post(
    API.org.departments,
    { config: admin, schema: { tags, summary: '新增部门', body: departmentSaveSchema, response: { 200: envelopeSchema(departmentSchema) } } },
    async (request) => ok(await createDepartment(ctx, request.body), zhCN.saved),
  );
  app.put(
    API.org.department,
    {
      config: admin,
      schema: { tags, summary: '修改或移动部门', params: idParamSchema, body: departmentSaveSchema, response: { 200: envelopeSchema(departmentSchema) } },
    },
    async (request) => ok(await updateDepartment(ctx, request.params.id, request.body), zhCN.saved),
  );
  app.delete(
    API.org.department,
    { config: admin, schema: { tags, summary: '删除部门（须无下级、无用户）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await deleteDepartment(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.org.roles,
    { config: admin, schema: { tags, summary: '角色树（含权限）', response: { 200: envelopeSchema(z.array(roleNodeSchema)) } } },
    async () => ok(await roleTree(db)),
  );
  app.post(
    API.org.roles,
    { config: admin, schema: { tags, summary: '新增角色', body: roleSaveSchema, response: { 200: envelopeSchema(roleSchema) } } },
    async (request) => ok(await createRole(db, request.body), zhCN.saved),
  );
  app.put(
    API.org.role,
    {
      config: admin,
      schema: { tags, summary: '修改角色及其权限', params: idParamSchema, body: roleSaveSchema, response: { 200: envelopeSchema(roleSchema) } },
    },
    async (request) => ok(await updateRole(db, request.params.id, request.body), zhCN.saved),
  );
  app.delete(
    API.org.role,
    { config: admin, schema: { tags, summary: '删除角色（须无下级）', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await deleteRole(ctx, request.params.id);
      return ok(null, zhCN.deleted);
    },
  );

  app.get(
    API.org.permissions,
    { config: admin, schema: { tags, summary: '权限编码目录', response: { 200: envelopeSchema(z.array(permissionSchema)) } } },
    async () => ok(PERMISSIONS.map((p) => ({ ...p }))),
  );
}
