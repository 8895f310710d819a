import type { AppContext } from '../../context.ts';
import { parseTables } from './model.ts';

/** A dataset that reads a table (or SQL view) of a source, and the columns its fields take from it. */
export interface TableUsage {
  id: number;
  cubeName: string;
  /** Physical columns of its fields on that table, in field order, each once. */
  columns: string[];
}

/**
 * The datasets of a source that name `tableName` (ignoring case, unqualified: how a SQL view is
 * named), for the SQL view editor's warning when a used view changes (issue 28).
 */
export async function datasetsUsingTable(ctx: AppContext, datasourceId: number, tableName: string): Promise<TableUsage[]> {
  const wanted = tableName.toLowerCase();
  const cubes = await ctx.db.selectFrom('cube').select(['id', 'cubeName', 'cubeTableNames']).where('datasourceId', '=', datasourceId).orderBy('id').execute();
  const usages: TableUsage[] = [];
  for (const cube of cubes) {
    const aliases = parseTables(cube.cubeTableNames)
      .filter((t) => !t.schema && t.tableName.toLowerCase() === wanted)
      .map((t) => t.tableAliasName);
    if (aliases.length === 0) continue;
    const fields = await ctx.db
      .selectFrom('cubeField')
      .select('columnName')
      .where('cubeId', '=', cube.id)
      .where('columnAttr', '=', 'NORMAL')
      .where('tableAliasName', 'in', aliases)
      .orderBy('sortNum')
      .orderBy('id')
      .execute();
    const columns = [...new Set(fields.map((f) => f.columnName).filter((c): c is string => c !== null))];
    usages.push({ id: cube.id, cubeName: cube.cubeName, columns });
  }
  return usages;
}
