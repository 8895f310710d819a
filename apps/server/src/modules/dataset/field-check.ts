import type { z } from 'zod';
import { dedupeFieldTitle, DATASET_DEFAULTS, type DatasetFieldDraft, type fieldCheckSchema, type ViewDataType } from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { fieldError } from '../../platform/http/errors.ts';
import { sourceColumns, assertTablesUsable } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';

export type FieldCheckBody = z.output<typeof fieldCheckSchema>;

/**
 * Field check: the physical columns of the editor's tables that no field holds yet, as new
 * fields with the defaults (title: the column's comment, else its name, made unique by the
 * spec's rule; numbers as indicators, the rest as dimensions). An empty answer is the
 * editor's 无可同步字段.
 */
export async function checkFields(ctx: AppContext, caller: Caller, body: FieldCheckBody): Promise<DatasetFieldDraft[]> {
  const tables = body.cubeTableNames;
  await assertTablesUsable(
    ctx,
    caller,
    body.datasourceId,
    tables.map((t) => ({ schema: t.schema ?? null, name: t.tableName, quoted: true })),
  );
  const held = new Set(body.columnList.filter((f) => f.columnAttr === 'NORMAL').map((f) => `${f.tableAliasName ?? ''}\u0000${f.columnName ?? ''}`));
  const titles: { columnTitle: string; viewDataType: ViewDataType }[] = body.columnList.map((f) => ({
    columnTitle: f.columnTitle,
    viewDataType: f.viewDataType,
  }));
  const drafts: DatasetFieldDraft[] = [];
  for (const table of tables) {
    let columns;
    try {
      columns = await sourceColumns(ctx, body.datasourceId, { schema: table.schema ?? null, name: table.tableName });
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'tableNotFound') throw fieldError('cubeTableNames', error.message);
      throw error;
    }
    for (const column of columns) {
      if (held.has(`${table.tableAliasName}\u0000${column.name}`)) continue;
      const { columnTitle, hiddenStatus } = dedupeFieldTitle((column.comment || column.name).slice(0, 100), column.viewDataType, titles);
      titles.push({ columnTitle, viewDataType: column.viewDataType });
      drafts.push({
        columnName: column.name,
        columnTitle,
        columnComment: column.comment || null,
        columnAttr: 'NORMAL',
        columnFormula: null,
        tableName: table.tableName,
        tableAliasName: table.tableAliasName,
        dimensionType: column.viewDataType === 'NUMBER' ? 'ZHIBIAO' : 'WEIDU',
        viewDataType: column.viewDataType,
        oldViewDataType: column.viewDataType,
        hiddenStatus,
        sortNum: body.columnList.length + drafts.length + 1,
        numberDataFormat: DATASET_DEFAULTS.numberDataFormat,
        timeDataFormat: DATASET_DEFAULTS.timeDataFormat,
        aggregationType: DATASET_DEFAULTS.aggregationType,
        virtualAggregationStatus: 0,
        isExtra: 0,
      });
    }
  }
  return drafts;
}
