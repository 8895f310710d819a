import { z } from 'zod';
import {
  API,
  dictChildQuerySchema,
  dictParentQuerySchema,
  dictRemoveSchema,
  dictSaveSchema,
  dictSchema,
  envelopeSchema,
  idParamSchema,
  pageSchema,
  zhCN,
} from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { ok } from '../../platform/http/envelope.ts';
import { childPage, createDict, getDict, parentPage, removeDicts, updateDict } from './service.ts';

const tags = ['dict'];

/** Dictionary manager (spec 2 §2, §7): each action gated by its dict_* permission. */
export function registerDictRoutes(app: App, { db }: AppContext): void {
  app.get(
    API.dict.parents,
    {
      config: { access: { permission: 'dict_view' } },
      schema: { tags, summary: '字典列表（编号或名称搜索）', querystring: dictParentQuerySchema, response: { 200: envelopeSchema(pageSchema(dictSchema)) } },
    },
    async (request) => ok(await parentPage(db, request.query)),
  );
  app.get(
    API.dict.children,
    {
      config: { access: { permission: 'dict_view' } },
      schema: { tags, summary: '字典项列表（名称或键值搜索）', querystring: dictChildQuerySchema, response: { 200: envelopeSchema(pageSchema(dictSchema)) } },
    },
    async (request) => ok(await childPage(db, request.query.parentId, request.query)),
  );
  app.get(
    API.dict.dict,
    {
      config: { access: { permission: 'dict_view' } },
      schema: { tags, summary: '字典详情', params: idParamSchema, response: { 200: envelopeSchema(dictSchema) } },
    },
    async (request) => ok(await getDict(db, request.params.id)),
  );
  app.post(
    API.dict.dicts,
    {
      config: { access: { permission: 'dict_add' } },
      schema: { tags, summary: '新增字典或字典项', body: dictSaveSchema, response: { 200: envelopeSchema(dictSchema) } },
    },
    async (request) => ok(await createDict(db, request.body), zhCN.saved),
  );
  app.put(
    API.dict.dict,
    {
      config: { access: { permission: 'dict_edit' } },
      schema: { tags, summary: '修改字典或字典项', params: idParamSchema, body: dictSaveSchema, response: { 200: envelopeSchema(dictSchema) } },
    },
    async (request) => ok(await updateDict(db, request.params.id, request.body), zhCN.saved),
  );
  app.post(
    API.dict.remove,
    {
      config: { access: { permission: 'dict_delete' } },
      schema: { tags, summary: '批量删除字典', body: dictRemoveSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await removeDicts(db, request.body.ids);
      return ok(null, zhCN.deleted);
    },
  );
}
