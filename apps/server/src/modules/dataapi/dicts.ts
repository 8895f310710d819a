import { z } from 'zod';
import { dataApiDictNodeSchema, dataApiMessages, type DataApiDict } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../platform/http/errors.ts';

/**
 * Enumeration dictionaries saved from a preview (spec 2 §3 "Dictionary-from-API", §7;
 * docs/dataapi.md): keyCode names the dictionary, content is the tree the editor built from the
 * preview's ID, VALUE and PID columns. Saving an existing keyCode replaces its content (a
 * dictionary is refreshed from its API by saving it again).
 */

const treeSchema = z.array(dataApiDictNodeSchema);

function parseTree(content: string): DataApiDict['content'] {
  try {
    return treeSchema.parse(JSON.parse(content));
  } catch {
    throw badRequest(dataApiMessages.dictContentInvalid);
  }
}

type Row = { id: number; keyCode: string; apiId: number | null; content: string; updateTime: Date };
const toDict = (r: Row): DataApiDict => ({
  id: r.id,
  keyCode: r.keyCode,
  apiId: r.apiId,
  content: parseTree(r.content),
  updateTime: r.updateTime.toISOString(),
});

export async function saveDict(ctx: AppContext, userId: number, input: { keyCode: string; content: string; apiId?: number | null }): Promise<DataApiDict> {
  const tree = parseTree(input.content);
  const content = JSON.stringify(tree);
  const keyCode = input.keyCode.trim();
  const row = await ctx.db
    .insertInto('dataApiDict')
    .values({ keyCode, content, apiId: input.apiId ?? null, createUserId: userId })
    .onConflict((oc) => oc.column('keyCode').doUpdateSet({ content, apiId: input.apiId ?? null, updateTime: new Date() }))
    .returning(['id', 'keyCode', 'apiId', 'content', 'updateTime'])
    .executeTakeFirstOrThrow();
  return toDict(row);
}

export async function listDicts(ctx: AppContext): Promise<DataApiDict[]> {
  const rows = await ctx.db.selectFrom('dataApiDict').select(['id', 'keyCode', 'apiId', 'content', 'updateTime']).orderBy('keyCode').execute();
  return rows.map(toDict);
}

export async function getDict(ctx: AppContext, keyCode: string): Promise<DataApiDict> {
  const row = await ctx.db
    .selectFrom('dataApiDict')
    .select(['id', 'keyCode', 'apiId', 'content', 'updateTime'])
    .where('keyCode', '=', keyCode)
    .executeTakeFirst();
  if (!row) throw notFound(dataApiMessages.dictNotFound);
  return toDict(row);
}
