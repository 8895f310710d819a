import { sql, type Kysely, type Selectable } from 'kysely';
import {
  DATA_API_FAULT_THRESHOLD,
  queryParamItemSchema,
  type DataApi,
  type DataApiCategory,
  type DataApiListQuery,
  type QueryParamItem,
} from '@shutu/contracts';
import type { Database, DataApiTable } from '../../platform/db/schema.ts';
import { forgetMemo, memoized } from './call-memo.ts';

/** Data-API categories and APIs (0018_dataapi). */

type Db = Kysely<Database>;

const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toHeaders(text: string): Record<string, string> {
  const value = parseJson<unknown>(text, {});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

function toQueryParam(text: string): QueryParamItem[] {
  const value = parseJson<unknown>(text, []);
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = queryParamItemSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

export function toDataApi(r: Selectable<DataApiTable>): DataApi {
  return {
    id: r.id,
    apiKey: r.apiKey,
    apiName: r.apiName,
    categoryId: r.categoryId,
    apiFormal: r.apiFormal,
    remark: r.remark,
    datasourceId: r.datasourceId,
    queryTable: r.queryTable,
    querySql: r.querySql,
    apiType: r.apiType,
    chartType: r.chartType,
    apiStatus: r.apiStatus,
    apiUrl: r.apiUrl,
    apiMethod: r.apiMethod,
    apiParamType: r.apiParamType,
    apiJsFunction: r.apiJsFunction,
    apiHeaders: toHeaders(r.apiHeaders),
    note: r.note,
    queryParam: toQueryParam(r.queryParam),
    failCount: r.failCount,
    createUserId: r.createUserId,
    createTime: new Date(r.createTime).toISOString(),
    updateTime: new Date(r.updateTime).toISOString(),
  };
}

/** What a save writes (every column but the identity, the owner and the times). */
export interface DataApiValues {
  apiKey: string;
  apiName: string;
  categoryId: number | null;
  apiFormal: number;
  remark: string;
  datasourceId: number | null;
  queryTable: string | null;
  querySql: string | null;
  apiType: number;
  chartType: number;
  apiStatus: number;
  apiUrl: string | null;
  apiMethod: 'get' | 'post';
  apiParamType: number;
  apiJsFunction: string;
  apiHeaders: Record<string, string>;
  note: string;
  queryParam: QueryParamItem[];
}

const toColumns = (v: DataApiValues) => ({
  ...v,
  apiHeaders: JSON.stringify(v.apiHeaders),
  queryParam: JSON.stringify(v.queryParam),
});

export async function findApi(db: Db, id: number): Promise<DataApi | undefined> {
  const row = await db.selectFrom('dataApi').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toDataApi(row);
}

export async function findApiByKey(db: Db, apiKey: string): Promise<DataApi | undefined> {
  const row = await db.selectFrom('dataApi').selectAll().where('apiKey', '=', apiKey).executeTakeFirst();
  return row && toDataApi(row);
}

/** The API by key as the published runtime reads it: kept for a moment, forgotten on every write here (call-memo.ts). */
export function findApiByKeyMemo(db: Db, apiKey: string): Promise<DataApi | undefined> {
  return memoized(db, 'api', apiKey, () => findApiByKey(db, apiKey));
}

export async function apiKeyTaken(db: Db, apiKey: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('dataApi').select('id').where('apiKey', '=', apiKey);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The APIs a filter's pick-list may read (enumSource 2): online, formal, database or external —
 * whoever made them. Names only: the options themselves are read as the viewer (options.ts).
 */
export async function listPickSources(db: Db): Promise<{ id: number; apiName: string; apiKey: string }[]> {
  return db
    .selectFrom('dataApi')
    .select(['id', 'apiName', 'apiKey'])
    .where('apiStatus', '=', 1)
    .where('apiFormal', '=', 1)
    .where('apiType', 'in', [1, 2])
    .orderBy('apiName')
    .limit(1000)
    .execute();
}

/** A page of APIs: by category, name (contains, ignoring case), status, apiFormal, types; owners only for non-administrators. */
export async function listApis(db: Db, query: DataApiListQuery, ownerId: number | null): Promise<{ records: DataApi[]; total: number }> {
  let base = db.selectFrom('dataApi');
  if (ownerId !== null) base = base.where('createUserId', '=', ownerId);
  if (query.categoryId !== undefined) base = base.where('categoryId', '=', query.categoryId);
  if (query.apiName) {
    const pattern = containsPattern(query.apiName);
    base = base.where((eb) => eb.or([eb('apiName', 'ilike', pattern), eb('apiKey', 'ilike', pattern)]));
  }
  if (query.apiStatus !== undefined) base = base.where('apiStatus', '=', query.apiStatus);
  if (query.apiFormal !== undefined) base = base.where('apiFormal', '=', query.apiFormal);
  if (query.apiTypes) base = base.where('apiType', 'in', query.apiTypes.split(',').map(Number));
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.size)
      .offset((query.current - 1) * query.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { records: rows.map(toDataApi), total: Number(count.n) };
}

/** Every online API (the OpenAPI document), optionally only those of the given ids. */
export async function listOnlineApis(db: Db, ids?: number[]): Promise<DataApi[]> {
  let query = db.selectFrom('dataApi').selectAll().where('apiStatus', '=', 1);
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('id', 'in', ids);
  }
  return (await query.orderBy('apiKey').execute()).map(toDataApi);
}

export async function insertApi(db: Db, values: DataApiValues, createUserId: number): Promise<number> {
  const row = await db
    .insertInto('dataApi')
    .values({ ...toColumns(values), createUserId })
    .returning('id')
    .executeTakeFirstOrThrow();
  forgetMemo(db, 'api');
  return row.id;
}

export async function updateApi(db: Db, id: number, values: DataApiValues): Promise<boolean> {
  const result = await db
    .updateTable('dataApi')
    .set({ ...toColumns(values), updateTime: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  forgetMemo(db, 'api');
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteApi(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('dataApi').where('id', '=', id).executeTakeFirst();
  forgetMemo(db, 'api');
  return Number(result.numDeletedRows) > 0;
}

/** Sets the status; putting an API online (or offline) also forgets its failures. */
export async function setApiStatus(db: Db, id: number, apiStatus: number): Promise<boolean> {
  const result = await db
    .updateTable('dataApi')
    .set({ apiStatus, ...(apiStatus === 2 ? {} : { failCount: 0 }), updateTime: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  forgetMemo(db, 'api');
  return Number(result.numUpdatedRows) > 0;
}

/**
 * One more failed published call: the count goes up, and an online API reaching
 * DATA_API_FAULT_THRESHOLD consecutive failures turns faulty (2) in the same statement, so
 * concurrent calls of several processes count exactly.
 */
export async function recordFailure(db: Db, id: number): Promise<void> {
  await db
    .updateTable('dataApi')
    .set({
      failCount: sql`fail_count + 1`,
      apiStatus: sql`case when api_status = 1 and fail_count + 1 >= ${DATA_API_FAULT_THRESHOLD} then 2 else api_status end`,
    })
    .where('id', '=', id)
    .execute();
  forgetMemo(db, 'api');
}

/** A successful call: the run of failures ends (written only when there was one). */
export async function recordSuccess(db: Db, id: number): Promise<void> {
  await db.updateTable('dataApi').set({ failCount: 0 }).where('id', '=', id).where('failCount', '<>', 0).execute();
  forgetMemo(db, 'api');
}

/** A successful preview puts a faulty API back online (docs/dataapi.md "Faulty"). */
export async function recoverFromPreview(db: Db, id: number): Promise<void> {
  await db
    .updateTable('dataApi')
    .set({ failCount: 0, apiStatus: sql`case when api_status = 2 then 1 else api_status end` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('failCount', '<>', 0), eb('apiStatus', '=', 2)]))
    .execute();
  forgetMemo(db, 'api');
}

// Categories

export async function listCategories(db: Db): Promise<DataApiCategory[]> {
  const rows = await db
    .selectFrom('dataApiCategory as c')
    .select(['c.id', 'c.categoryName', 'c.sort'])
    .select((eb) =>
      eb
        .selectFrom('dataApi as a')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('a.categoryId', '=', 'c.id')
        .as('apiCount'),
    )
    .orderBy('c.sort')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({ id: r.id, categoryName: r.categoryName, sort: r.sort, apiCount: Number(r.apiCount ?? 0) }));
}

export async function findCategory(db: Db, id: number): Promise<{ id: number; categoryName: string; sort: number } | undefined> {
  return db.selectFrom('dataApiCategory').select(['id', 'categoryName', 'sort']).where('id', '=', id).executeTakeFirst();
}

export async function categoryNameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('dataApiCategory')
    .select('id')
    .where(sql<string>`lower(category_name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertCategory(db: Db, categoryName: string, sort: number): Promise<number> {
  const row = await db.insertInto('dataApiCategory').values({ categoryName, sort }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCategory(db: Db, id: number, categoryName: string, sort: number): Promise<boolean> {
  const result = await db.updateTable('dataApiCategory').set({ categoryName, sort }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countApisIn(db: Db, categoryId: number): Promise<number> {
  const row = await db
    .selectFrom('dataApi')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('categoryId', '=', categoryId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteCategory(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('dataApiCategory').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
