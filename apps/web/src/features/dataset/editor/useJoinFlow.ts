import { useCallback, useState } from 'react';
import type { DataSourceColumn, JoinType } from '@shutu/contracts';
import { notifyError } from '../../../shared/notify.ts';
import { fetchColumns } from './api.ts';
import type { JoinDrawerProps, JoinFieldOption } from './JoinDrawer.tsx';
import type { DragTable } from './LeftPanel.tsx';
import type { EditorField, EditorJoinKey, EditorModel, EditorTable } from './model-state.ts';
import { fieldsFromColumns, randomAlias, renumber } from './model-state.ts';

type SetModel = (update: (m: EditorModel) => EditorModel) => void;

const fieldOptions = (fields: readonly EditorField[], alias: string): JoinFieldOption[] =>
  fields
    .filter((f) => f.tableAliasName === alias)
    .map((f) =>
      f.columnAttr === 'VIRTUAL'
        ? { key: f.columnFormula ?? '', title: f.columnTitle, viewDataType: f.viewDataType, vt: 1 as const }
        : { key: f.columnName ?? '', title: f.columnTitle, viewDataType: f.viewDataType, vt: 0 as const },
    )
    .filter((o) => o.key !== '');

const columnOptions = (columns: readonly DataSourceColumn[]): JoinFieldOption[] =>
  columns.map((c) => ({ key: c.name, title: c.comment ? `${c.comment}（${c.name}）` : c.name, viewDataType: c.viewDataType, vt: 0 }));

const tableLabel = (t: Pick<EditorTable, 'tableName' | 'tableComment'>) => t.tableComment || t.tableName;

/** Dropping tables on the canvas and the join drawer's add / edit modes. */
export function useJoinFlow(datasourceId: number, model: EditorModel, setModel: SetModel) {
  const [drawer, setDrawer] = useState<Omit<JoinDrawerProps, 'open' | 'onClose'> | null>(null);

  const newTable = useCallback(
    async (drag: DragTable, taken: string[]) => {
      const columns = await fetchColumns(datasourceId, drag.tableName, drag.schema);
      const table: EditorTable = {
        tableName: drag.tableName,
        tableAliasName: randomAlias(taken),
        tableComment: drag.tableComment || null,
        schema: drag.schema,
        type: drag.type,
      };
      return { table, columns };
    },
    [datasourceId],
  );

  const dropFirst = useCallback(
    async (drag: DragTable) => {
      try {
        const { table, columns } = await newTable(drag, []);
        setModel((m) => (m.tables.length > 0 ? m : { tables: [table], joins: [], fields: renumber(fieldsFromColumns(columns, table, [])) }));
      } catch (error) {
        notifyError(error);
      }
    },
    [newTable, setModel],
  );

  const dropOn = useCallback(
    async (source: string, drag: DragTable) => {
      try {
        const { table, columns } = await newTable(
          drag,
          model.tables.map((t) => t.tableAliasName),
        );
        const parent = model.tables.find((t) => t.tableAliasName === source);
        setDrawer({
          sourceName: parent ? tableLabel(parent) : source,
          targetName: tableLabel(table),
          sourceFields: fieldOptions(model.fields, source),
          targetFields: columnOptions(columns),
          onOk: (joinType: JoinType, keys: EditorJoinKey[]) => {
            setModel((m) => ({
              tables: [...m.tables, table],
              joins: [...m.joins, { joinType, source, target: table.tableAliasName, joinKeys: keys }],
              fields: [...m.fields, ...fieldsFromColumns(columns, table, m.fields)],
            }));
            setDrawer(null);
          },
        });
      } catch (error) {
        notifyError(error);
      }
    },
    [model, newTable, setModel],
  );

  const editJoin = useCallback(
    (target: string) => {
      const join = model.joins.find((j) => j.target === target);
      if (!join) return;
      const s = model.tables.find((t) => t.tableAliasName === join.source);
      const t = model.tables.find((x) => x.tableAliasName === target);
      setDrawer({
        sourceName: s ? tableLabel(s) : join.source,
        targetName: t ? tableLabel(t) : target,
        sourceFields: fieldOptions(model.fields, join.source),
        targetFields: fieldOptions(model.fields, target),
        initialType: join.joinType,
        initialKeys: join.joinKeys,
        onOk: (joinType, keys) => {
          setModel((m) => ({ ...m, joins: m.joins.map((j) => (j.target === target ? { ...j, joinType, joinKeys: keys } : j)) }));
          setDrawer(null);
        },
      });
    },
    [model, setModel],
  );

  return { drawer, closeDrawer: () => setDrawer(null), dropFirst, dropOn, editJoin };
}
