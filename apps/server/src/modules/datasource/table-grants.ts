import { DATA_SOURCE_TYPE_LABELS, formatMessage, permMessages, zhCN, type DataSourceGrant, type TableRef } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { fieldError, notFound } from '../../platform/http/errors.ts';
import { requireGroup, invalidatePermissions, listTableGrants, listWritableSources, replaceTableGrants, setSourceWritable } from '../perm/index.ts';
import { getDataSource, getDataSourceDriver } from './registry.ts';

/**
 * Tables of data sources granted to a permission group (spec 2 §3 "Data-source
 * authorisation", §7 "Data-source table authorisation"). They live with the data sources:
 * saving one asks the source for its tables. The permission service (perm/) stores them and
 * answers who may use what.
 */

const tableKey = (t: TableRef) => `${t.schema}\u0000${t.name}`;

/** dsAuthList: the group's data sources, each with its granted tables. */
export async function listDataSourceGrants(ctx: AppContext, permId: number): Promise<DataSourceGrant[]> {
  await requireGroup(ctx, permId);
  const bySource = new Map<number, DataSourceGrant>();
  const writable = await listWritableSources(ctx, permId);
  for (const row of await listTableGrants(ctx.db, permId)) {
    let grant = bySource.get(row.datasourceId);
    if (!grant) {
      grant = {
        dataPermId: permId,
        datasourceId: row.datasourceId,
        dsName: row.dsName,
        dsTypeSyl: DATA_SOURCE_TYPE_LABELS[row.type],
        tableNames: [],
        writable: writable.has(row.datasourceId),
      };
      bySource.set(row.datasourceId, grant);
    }
    grant.tableNames.push({ schema: row.tableSchema, name: row.tableName });
  }
  return [...bySource.values()];
}

/**
 * dsAuthSave: the group's tables of one source become `tables` (each once); an empty list
 * removes the source from the group. Every table must exist in the source now: it is asked
 * for its tables, and an unknown one is refused with 400. Returns the group's grants.
 */
export async function saveDataSourceGrant(
  ctx: AppContext,
  permId: number,
  datasourceId: number,
  tables: readonly TableRef[],
  writable?: boolean,
): Promise<DataSourceGrant[]> {
  await requireGroup(ctx, permId);
  await getDataSource(ctx, datasourceId);
  const unique = [...new Map(tables.map((t) => [tableKey(t), { schema: t.schema, name: t.name }] as const)).values()];
  if (unique.length > 0) {
    const known = new Set((await (await getDataSourceDriver(ctx, datasourceId)).listTables()).map(tableKey));
    const missing = unique.find((t) => !known.has(tableKey(t)));
    if (missing) throw fieldError('tableNames', formatMessage(permMessages.tableMissing, { name: missing.name }));
  }
  const outcome = await replaceTableGrants(ctx.db, permId, datasourceId, unique);
  invalidatePermissions(ctx);
  if (outcome === 'noGroup') throw notFound(permMessages.groupNotFound);
  if (outcome === 'noSource') throw notFound(zhCN.dsNotFound);
  // The write permission goes with the grant: no tables, no uploads.
  if (unique.length === 0) await setSourceWritable(ctx, permId, datasourceId, false);
  else if (writable !== undefined) await setSourceWritable(ctx, permId, datasourceId, writable);
  return listDataSourceGrants(ctx, permId);
}
