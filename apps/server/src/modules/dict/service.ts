import type { Kysely } from 'kysely';
import { zhCN, type Dict, type Page } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import { page } from '../../platform/http/envelope.ts';
import { conflict, fieldError, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import {
  childKeyTaken,
  countChildrenOutside,
  deleteDicts,
  findDict,
  findDictForUpdate,
  findParentForShare,
  insertDict,
  listChildren,
  listParents,
  lockDicts,
  parentCodeTaken,
  updateChildrenCode,
  updateDict as updateDictRow,
  type DictValues,
} from './repo.ts';

type Db = Kysely<Database>;

export interface DictPageQuery {
  current: number;
  size: number;
  query?: string | undefined;
}

/** Dictionary admin (spec 2 §3, §5): parents have parentId 0 and a unique code; children a unique key per parent. */
export async function parentPage(db: Db, { current, size, query }: DictPageQuery): Promise<Page<Dict>> {
  const { rows, total } = await listParents(db, query, (current - 1) * size, size);
  return page(rows, total, current, size);
}

export async function childPage(db: Db, parentId: number, { current, size, query }: DictPageQuery): Promise<Page<Dict>> {
  if (!(await findDict(db, parentId).then((d) => d?.parentId === 0))) throw notFound(zhCN.dictParentNotFound);
  const { rows, total } = await listChildren(db, parentId, query, (current - 1) * size, size);
  return page(rows, total, current, size);
}

/** One entry; a parent also carries how many children it has. */
export async function getDict(db: Db, id: number): Promise<Dict> {
  const row = await findDict(db, id);
  if (!row) throw notFound(zhCN.dictNotFound);
  if (row.parentId !== 0) {
    const { childCount: _, ...child } = row;
    return child;
  }
  return row;
}

/** The unique indexes back the checks below; a race past them still ends as the same 409. */
async function withUniqueConflict<T>(parentId: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(parentId === 0 ? zhCN.dictCodeExists : zhCN.dictKeyExists);
    throw error;
  }
}

/**
 * A child must belong to an existing parent and always carries its parent's code: a
 * different code in the body is replaced by the parent's, so a dictionary is looked up
 * by one code for all its entries.
 */
export async function createDict(db: Db, values: DictValues): Promise<Dict> {
  const id = await withUniqueConflict(values.parentId, () =>
    db.transaction().execute(async (trx) => {
      let code = values.code;
      if (values.parentId !== 0) {
        const parent = await findParentForShare(trx, values.parentId);
        if (!parent) throw fieldError('parentId', zhCN.dictParentNotFound);
        code = parent.code;
        if (await childKeyTaken(trx, values.parentId, values.dictKey)) throw conflict(zhCN.dictKeyExists);
      } else if (await parentCodeTaken(trx, code)) {
        throw conflict(zhCN.dictCodeExists);
      }
      return insertDict(trx, { ...values, code });
    }),
  );
  return getDict(db, id);
}

/**
 * Edits an entry in place. Its level and parent never change here (body.parentId is
 * ignored): a child stays under its parent and keeps the parent's code. A new code on a
 * parent is carried to all its children in the same transaction.
 */
export async function updateDict(db: Db, id: number, values: DictValues): Promise<Dict> {
  const { parentId: _ignored, ...fields } = values;
  const known = await findDict(db, id);
  if (!known) throw notFound(zhCN.dictNotFound);
  await withUniqueConflict(known.parentId, () =>
    db.transaction().execute(async (trx) => {
      // Parent before child, the order every writer locks in, so no two wait on each other.
      const parent = known.parentId === 0 ? undefined : await findParentForShare(trx, known.parentId);
      const existing = await findDictForUpdate(trx, id);
      if (!existing) throw notFound(zhCN.dictNotFound);
      if (existing.parentId !== 0) {
        if (!parent) throw notFound(zhCN.dictParentNotFound);
        if (await childKeyTaken(trx, existing.parentId, fields.dictKey, id)) throw conflict(zhCN.dictKeyExists);
        await updateDictRow(trx, id, { ...fields, code: parent.code });
        return;
      }
      if (await parentCodeTaken(trx, fields.code, id)) throw conflict(zhCN.dictCodeExists);
      await updateDictRow(trx, id, fields);
      if (fields.code !== existing.code) await updateChildrenCode(trx, id, fields.code);
    }),
  );
  return getDict(db, id);
}

/**
 * Batch delete, all or nothing. Every id must exist; a parent may go only together with
 * all of its children (otherwise 请先删除字典项 and nothing is deleted).
 */
export async function removeDicts(db: Db, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  return db.transaction().execute(async (trx) => {
    const rows = await lockDicts(trx, unique);
    if (rows.length !== unique.length) throw notFound(zhCN.dictNotFound);
    const parents = rows.filter((r) => r.parentId === 0).map((r) => r.id);
    if ((await countChildrenOutside(trx, parents, unique)) > 0) throw conflict(zhCN.dictHasChildren);
    return deleteDicts(trx, unique);
  });
}
