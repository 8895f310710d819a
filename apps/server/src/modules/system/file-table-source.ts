import { zhCN, type FileTableSource } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/http/errors.ts';

/**
 * 文件表目标数据源 (issue 27; docs/filetable-load.md): one value in sys_config (key
 * fileTableSource, a data-source id); unset is the built-in warehouse. Read when the upload
 * picker opens, so it is not cached: every process reads the store.
 */
const KEY = 'fileTableSource';

export async function getFileTableSource(ctx: AppContext): Promise<FileTableSource> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', KEY).executeTakeFirst();
  const id = row ? Number(row.value) : NaN;
  if (!Number.isInteger(id) || id <= 0) return { datasourceId: null };
  // A source deleted since is no target: the built-in warehouse again.
  const source = await ctx.db.selectFrom('dataSource').select('id').where('id', '=', id).executeTakeFirst();
  return { datasourceId: source ? id : null };
}

export async function saveFileTableSource(ctx: AppContext, input: FileTableSource): Promise<FileTableSource> {
  const { datasourceId } = input;
  if (datasourceId === null) {
    await ctx.db.deleteFrom('sysConfig').where('key', '=', KEY).execute();
    return { datasourceId: null };
  }
  const source = await ctx.db.selectFrom('dataSource').select('id').where('id', '=', datasourceId).executeTakeFirst();
  if (!source) throw badRequest(zhCN.dsNotFound, [{ field: 'datasourceId', message: zhCN.dsNotFound }]);
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: KEY, value: String(datasourceId) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(datasourceId) }))
    .execute();
  return { datasourceId };
}
