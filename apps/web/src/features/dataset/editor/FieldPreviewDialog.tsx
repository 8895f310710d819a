import { useQuery } from '@tanstack/react-query';
import { Alert, Modal, Table, Tabs } from 'antd';
import type { CubePreview, DataSourceColumn } from '@shutu/contracts';
import { errorText } from '../../../shared/notify.ts';
import { fetchColumns, previewModel } from './api.ts';
import { PreviewTable } from './PreviewTab.tsx';
import { fpm } from './field-messages.ts';

/** A table of the left panel (its PreviewedTable): what the preview needs of it. */
interface PreviewedTable {
  tableName: string;
  tableComment: string;
  schema: string | null;
}

/** Rows the field preview shows. */
export const FIELD_PREVIEW_ROWS = 20;

/** A detail read of every column of one table (or SQL view), through the editor's model preview and its grants. */
function firstRowsBody(datasourceId: number, table: PreviewedTable, columns: readonly DataSourceColumn[]): CubePreview {
  const fields = columns.map((c, i) => ({
    id: `c${i}`,
    columnName: c.name,
    columnTitle: c.comment ? `${c.comment}（${c.name}）` : c.name,
    tableAliasName: 't',
    columnAttr: 'NORMAL' as const,
    viewDataType: c.viewDataType,
  }));
  return {
    datasourceId,
    model: { tables: [{ tableName: table.tableName, tableAliasName: 't', schema: table.schema }], joins: [], fields },
    request: { dimensions: fields.map((f) => ({ fieldId: f.id })), detail: true, limit: FIELD_PREVIEW_ROWS },
  };
}

/**
 * 字段预览 (spec 2 §2 "Dialogs and drawers"): clicking a table, file table or SQL view in the left
 * panel shows its columns (name, type, comment) and first rows before it is dragged in.
 */
export function FieldPreviewDialog({ datasourceId, table, onClose }: { datasourceId: number; table: PreviewedTable | null; onClose: () => void }) {
  const columns = useQuery({
    queryKey: ['dataset', 'editor', 'field-preview', datasourceId, table?.schema ?? null, table?.tableName],
    queryFn: () => fetchColumns(datasourceId, table!.tableName, table!.schema),
    enabled: table !== null,
    retry: false,
  });
  const rows = useQuery({
    queryKey: ['dataset', 'editor', 'field-preview-rows', datasourceId, table?.schema ?? null, table?.tableName],
    queryFn: () => previewModel(firstRowsBody(datasourceId, table!, columns.data!)),
    enabled: table !== null && (columns.data?.length ?? 0) > 0,
    retry: false,
    staleTime: 0,
  });
  const title = table ? `${fpm.title}：${table.tableComment ? `${table.tableComment}（${table.tableName}）` : table.tableName}` : fpm.title;
  return (
    <Modal open={table !== null} title={title} width={860} footer={null} onCancel={onClose} destroyOnHidden>
      {columns.isError ? (
        <Alert type="error" showIcon title={errorText(columns.error)} />
      ) : (
        <Tabs
          items={[
            {
              key: 'columns',
              label: `${fpm.columns}（${columns.data?.length ?? 0}）`,
              children: (
                <Table
                  data-testid="ds-field-preview-columns"
                  size="small"
                  bordered
                  rowKey="name"
                  loading={columns.isLoading}
                  pagination={false}
                  scroll={{ y: 360 }}
                  dataSource={columns.data ?? []}
                  columns={[
                    { key: 'name', dataIndex: 'name', title: fpm.name },
                    { key: 'type', dataIndex: 'dbType', title: fpm.type, width: 180 },
                    { key: 'comment', dataIndex: 'comment', title: fpm.comment },
                  ]}
                />
              ),
            },
            {
              key: 'rows',
              label: fpm.rows,
              children: rows.isError ? (
                <Alert type="error" showIcon title={errorText(rows.error)} />
              ) : (
                <PreviewTable result={rows.data} loading={rows.isFetching} />
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
