import {
  DEFAULT_API_JS_FUNCTION,
  dataApiMessages,
  formatMessage,
  type DataApi,
  type DataApiCategory,
  type DataApiListQuery,
  type DataApiSaveParsed,
  type Page,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import { page } from '../../platform/http/envelope.ts';
import type { Caller } from '../perm/index.ts';
import { checkApiQuery } from './execute.ts';
import { checkOutgoingUrl } from './external.ts';
import { parseNote } from './params.ts';
import {
  apiKeyTaken,
  categoryNameTaken,
  countApisIn,
  deleteApi,
  deleteCategory,
  findApi,
  findApiByKey,
  findCategory,
  insertApi,
  insertCategory,
  listApis,
  listCategories,
  setApiStatus,
  updateApi,
  updateCategory,
  type DataApiValues,
} from './repo.ts';
import { checkHandlerSyntax } from './sandbox.ts';

/**
 * Data-API records (spec 2 §3 "Data API", §5, §7): categories, APIs, copy and status.
 * Every user may define APIs; a non-administrator lists, changes and deletes only their own
 * (decision, docs/dataapi.md). A save checks what will run: the SQL (type 1) or the table
 * (type 3) through the read module as the author, with the author's table grants; the handler's
 * syntax (type 2, 请检查语法) in the sandbox and the URL against the outgoing rules.
 */

// Categories

export const categories = (ctx: AppContext): Promise<DataApiCategory[]> => listCategories(ctx.db);

export async function saveCategory(ctx: AppContext, id: number | null, body: { categoryName: string; sort: number }): Promise<DataApiCategory> {
  if (id !== null && !(await findCategory(ctx.db, id))) throw notFound(dataApiMessages.categoryNotFound);
  if (await categoryNameTaken(ctx.db, body.categoryName, id ?? undefined)) throw conflict(dataApiMessages.categoryExists);
  try {
    const saved = id === null ? await insertCategory(ctx.db, body.categoryName, body.sort) : id;
    if (id !== null) await updateCategory(ctx.db, id, body.categoryName, body.sort);
    return (await listCategories(ctx.db)).find((c) => c.id === saved)!;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(dataApiMessages.categoryExists);
    throw error;
  }
}

/** A category that still holds APIs is not deleted (409 naming how many). */
export async function removeCategory(ctx: AppContext, id: number): Promise<void> {
  const count = await countApisIn(ctx.db, id);
  if (count > 0) throw conflict(formatMessage(dataApiMessages.categoryInUse, { count }));
  if (!(await deleteCategory(ctx.db, id))) throw notFound(dataApiMessages.categoryNotFound);
}

// APIs

const mayChange = (caller: Caller, api: DataApi) => caller.isAdministrator || api.createUserId === caller.userId;

export async function listDataApis(ctx: AppContext, caller: Caller, query: DataApiListQuery): Promise<Page<DataApi>> {
  const { records, total } = await listApis(ctx.db, query, caller.isAdministrator ? null : caller.userId);
  return page(records, total, query.current, query.size);
}

/** dataapiDetail / dataapiDetailKey: the API, for its author or an administrator. */
export async function getDataApi(ctx: AppContext, caller: Caller, ref: { id: number } | { apiKey: string }): Promise<DataApi> {
  const api = 'id' in ref ? await findApi(ctx.db, ref.id) : await findApiByKey(ctx.db, ref.apiKey);
  if (!api) throw notFound(dataApiMessages.apiNotFound);
  if (!mayChange(caller, api)) throw forbidden(dataApiMessages.notOwner);
  return api;
}

function valuesOf(body: DataApiSaveParsed): DataApiValues {
  const external = body.apiType === 2;
  return {
    apiKey: body.apiKey,
    apiName: body.apiName,
    categoryId: body.categoryId,
    apiFormal: body.apiFormal,
    remark: body.remark,
    datasourceId: external ? null : (body.datasourceId ?? null),
    queryTable: body.apiType === 3 ? (body.queryTable?.trim() ?? null) : null,
    querySql: body.apiType === 1 ? (body.querySql ?? null) : null,
    apiType: body.apiType,
    // 1-3 (flying line, basic indicator, other) only for external APIs.
    chartType: external ? body.chartType : 0,
    apiStatus: body.apiStatus,
    apiUrl: external ? (body.apiUrl?.trim() ?? null) : null,
    apiMethod: body.apiMethod,
    apiParamType: body.apiMethod === 'post' ? body.apiParamType : 0,
    apiJsFunction: body.apiJsFunction?.trim() ? body.apiJsFunction : DEFAULT_API_JS_FUNCTION,
    apiHeaders: body.apiHeaders,
    note: body.note.trim() === '' ? '{}' : body.note,
    queryParam: body.apiType === 3 ? body.queryParam : [],
  };
}

/** What a save checks before writing: the note, the category, then what the API will run. */
async function checkValues(ctx: AppContext, caller: Caller, values: DataApiValues, id: number | null): Promise<void> {
  parseNote(values.note);
  if (values.categoryId === null || !(await findCategory(ctx.db, values.categoryId))) {
    throw badRequest(dataApiMessages.categoryRequired, [{ field: 'categoryId', message: dataApiMessages.categoryRequired }]);
  }
  if (await apiKeyTaken(ctx.db, values.apiKey, id ?? undefined)) throw conflict(dataApiMessages.apiKeyExists);
  const probe: DataApi = { ...values, id: id ?? 0, failCount: 0, createUserId: caller.userId, createTime: '', updateTime: '' };
  if (values.apiType === 2) {
    await checkOutgoingUrl(ctx, values.apiUrl ?? '');
    await checkHandlerSyntax(values.apiJsFunction);
  } else await checkApiQuery(ctx, probe, caller);
}

/** dataapiSubmit: creates, or with `id` replaces, an API; answers the saved API (its id in data.id). */
export async function saveDataApi(ctx: AppContext, caller: Caller, body: DataApiSaveParsed): Promise<DataApi> {
  const id = body.id ?? null;
  if (id !== null) await getDataApi(ctx, caller, { id });
  const values = valuesOf(body);
  await checkValues(ctx, caller, values, id);
  try {
    if (id === null) return (await findApi(ctx.db, await insertApi(ctx.db, values, caller.userId)))!;
    if (!(await updateApi(ctx.db, id, values))) throw notFound(dataApiMessages.apiNotFound);
    return (await findApi(ctx.db, id))!;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(dataApiMessages.apiKeyExists);
    throw error;
  }
}

export async function removeDataApi(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await getDataApi(ctx, caller, { id });
  if (!(await deleteApi(ctx.db, id))) throw notFound(dataApiMessages.apiNotFound);
}

/** A free key for a copy: the given one, else `<key>_copy`, `<key>_copy2` … */
async function copyKey(ctx: AppContext, apiKey: string): Promise<string> {
  const stem = `${apiKey.slice(0, 90)}_copy`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? stem : `${stem}${n}`;
    if (!(await apiKeyTaken(ctx.db, candidate))) return candidate;
  }
}

/** Copies an API as the caller's own, offline until put online (decision: a copy does not publish by itself). */
export async function copyDataApi(ctx: AppContext, caller: Caller, id: number, apiKey: string | undefined): Promise<DataApi> {
  const source = await getDataApi(ctx, caller, { id });
  const key = apiKey ?? (await copyKey(ctx, source.apiKey));
  if (await apiKeyTaken(ctx.db, key)) throw conflict(dataApiMessages.apiKeyExists);
  const { id: _id, failCount: _f, createUserId: _c, createTime: _t, updateTime: _u, ...rest } = source;
  const values: DataApiValues = { ...rest, apiKey: key, apiName: `${source.apiName.slice(0, 95)}_副本`, apiStatus: 0 };
  try {
    return (await findApi(ctx.db, await insertApi(ctx.db, values, caller.userId)))!;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(dataApiMessages.apiKeyExists);
    throw error;
  }
}

/** Sets 0 offline / 1 online / 2 faulty; online and offline forget the run of failures. */
export async function changeStatus(ctx: AppContext, caller: Caller, id: number, apiStatus: number): Promise<DataApi> {
  await getDataApi(ctx, caller, { id });
  await setApiStatus(ctx.db, id, apiStatus);
  return (await findApi(ctx.db, id))!;
}
