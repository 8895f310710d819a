import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Form, Input, Spin, Tabs, Tooltip } from 'antd';
import { DatabaseOutlined, EditOutlined, FileExcelOutlined, PlusOutlined, TableOutlined, UploadOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import type { SqlView } from '@shutu/contracts';
import { editorKeys, fetchCategories, fetchFileTables, fetchSourceTables, fetchSqlViews, fetchUsableSources } from './api.ts';
import { em } from './messages.ts';
import { sm } from './source-messages.ts';
import { FileUploadDrawer } from './FileUploadDrawer.tsx';
import { SqlViewDrawer } from './SqlViewDrawer.tsx';
import { CategoryField } from './CategoryField.tsx';
import { FieldPreviewDialog } from './FieldPreviewDialog.tsx';

export const LEFT_PANEL_WIDTH = 240;

/** A table being dragged from the left panel onto the canvas. */
export interface DragTable {
  tableName: string;
  tableComment: string;
  schema: string | null;
  type: 'TABLE' | 'FILE' | 'VIEW';
}

export interface EditorFormValues {
  cubeName: string;
  category: number[] | undefined;
  remark: string;
}

export const DRAG_MIME = 'application/x-shutu-table';

interface Props {
  datasourceId: number;
  dsName: string;
  form: FormInstance<EditorFormValues>;
  initialValues: EditorFormValues;
  saving: boolean;
  onSave: () => void;
  onDragTable: (table: DragTable | null) => void;
}

export { categoryPath } from './CategoryField.tsx';

interface TableListProps {
  items: DragTable[];
  loading: boolean;
  onDragTable: Props['onDragTable'];
  /** A click on a row: the field preview. */
  onPreview: (table: DragTable) => void;
  /** An action shown at the end of a row (the SQL view's edit icon). */
  action?: (table: DragTable) => ReactNode;
}

function TableList({ items, loading, onDragTable, onPreview, action }: TableListProps) {
  if (loading) return <Spin />;
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={em.noTables} />;
  return (
    <ul className="ds-table-list">
      {items.map((t) => (
        <li
          key={`${t.type}:${t.schema ?? ''}.${t.tableName}`}
          draggable
          data-testid={`ds-table-${t.tableName}`}
          title={t.tableComment ? `${t.tableName}（${t.tableComment}）` : t.tableName}
          onDragStart={(e) => {
            e.dataTransfer.setData(DRAG_MIME, JSON.stringify(t));
            e.dataTransfer.effectAllowed = 'copy';
            onDragTable(t);
          }}
          onDragEnd={() => onDragTable(null)}
          onClick={() => onPreview(t)}
        >
          {t.type === 'FILE' ? <FileExcelOutlined /> : t.type === 'VIEW' ? <DatabaseOutlined /> : <TableOutlined />}
          <span className="ds-table-name">{t.tableComment || t.tableName}</span>
          {action?.(t)}
        </li>
      ))}
    </ul>
  );
}

/** Left panel: the data source, its tables, file tables and SQL views to drag, and the dataset form. */
export function LeftPanel({ datasourceId, dsName, form, initialValues, saving, onSave, onDragTable }: Props) {
  const [keyword, setKeyword] = useState('');
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState<DragTable | null>(null);
  /** The SQL view drawer: closed, adding (null) or editing a view. */
  const [sqlView, setSqlView] = useState<{ view: SqlView | null } | null>(null);
  const tables = useQuery({ queryKey: editorKeys.tables(datasourceId), queryFn: () => fetchSourceTables(datasourceId), enabled: datasourceId > 0 });
  const files = useQuery({ queryKey: editorKeys.files(datasourceId), queryFn: () => fetchFileTables(datasourceId), enabled: datasourceId > 0 });
  const views = useQuery({ queryKey: editorKeys.views(datasourceId), queryFn: () => fetchSqlViews(datasourceId), enabled: datasourceId > 0 });
  const categories = useQuery({ queryKey: editorKeys.categories, queryFn: fetchCategories });
  // The upload icon is for sources the caller may write (issue 28); unknown yet: shown, the server decides.
  const usable = useQuery({ queryKey: editorKeys.usable, queryFn: fetchUsableSources });
  const writable = usable.data?.find((s) => s.id === datasourceId)?.writable !== false;

  const lists = useMemo(() => {
    const fileNames = new Set((files.data ?? []).map((f) => f.tableName));
    const viewNames = new Set((views.data ?? []).map((v) => v.viewName));
    const kw = keyword.trim().toLowerCase();
    const match = (t: DragTable) => !kw || t.tableName.toLowerCase().includes(kw) || t.tableComment.toLowerCase().includes(kw);
    return {
      tables: (tables.data ?? [])
        .filter((t) => !fileNames.has(t.name) && !viewNames.has(t.name))
        .map((t): DragTable => ({ tableName: t.name, tableComment: t.comment, schema: t.schema, type: 'TABLE' }))
        .filter(match),
      files: (files.data ?? []).map((f): DragTable => ({ tableName: f.tableName, tableComment: f.tableComment, schema: null, type: 'FILE' })).filter(match),
      views: (views.data ?? []).map((v): DragTable => ({ tableName: v.viewName, tableComment: v.sqlName, schema: null, type: 'VIEW' })).filter(match),
    };
  }, [tables.data, files.data, views.data, keyword]);

  return (
    <div className="ds-left" data-testid="ds-left-panel">
      <div className="ds-left-source" data-testid="ds-source-name">
        <DatabaseOutlined /> {em.dataSource}：{dsName}
      </div>
      <Input.Search allowClear placeholder={em.searchTable} value={keyword} onChange={(e) => setKeyword(e.target.value)} data-testid="ds-table-search" />
      <Tabs
        size="small"
        className="ds-left-tabs"
        items={[
          {
            key: 'tables',
            label: em.tabTables,
            children: <TableList items={lists.tables} loading={tables.isLoading} onDragTable={onDragTable} onPreview={setPreviewing} />,
          },
          {
            key: 'files',
            label: em.tabFiles,
            children: (
              <>
                <div className="ds-tab-tools">
                  {writable && (
                    <Tooltip title={sm.uploadFile}>
                      <Button
                        size="small"
                        type="text"
                        icon={<UploadOutlined />}
                        aria-label={sm.uploadFile}
                        onClick={() => setUploading(true)}
                        data-testid="ds-upload-file"
                      />
                    </Tooltip>
                  )}
                </div>
                <TableList items={lists.files} loading={files.isLoading} onDragTable={onDragTable} onPreview={setPreviewing} />
              </>
            ),
          },
          {
            key: 'views',
            label: em.tabViews,
            children: (
              <>
                <div className="ds-tab-tools">
                  <Tooltip title={sm.addView}>
                    <Button
                      size="small"
                      type="text"
                      icon={<PlusOutlined />}
                      aria-label={sm.addView}
                      onClick={() => setSqlView({ view: null })}
                      data-testid="ds-add-view"
                    />
                  </Tooltip>
                </div>
                <TableList
                  items={lists.views}
                  loading={views.isLoading}
                  onDragTable={onDragTable}
                  onPreview={setPreviewing}
                  action={(t) => (
                    <Button
                      size="small"
                      type="text"
                      className="ds-table-action"
                      icon={<EditOutlined />}
                      title={sm.editView}
                      aria-label={sm.editView}
                      data-testid={`ds-edit-view-${t.tableName}`}
                      draggable={false}
                      onMouseDown={(e) => e.stopPropagation()}
                      onClick={(e) => {
                        e.stopPropagation();
                        const view = views.data?.find((v) => v.viewName === t.tableName);
                        if (view) setSqlView({ view });
                      }}
                    />
                  )}
                />
              </>
            ),
          },
        ]}
      />
      <FieldPreviewDialog datasourceId={datasourceId} table={previewing} onClose={() => setPreviewing(null)} />
      <FileUploadDrawer open={uploading} datasourceId={datasourceId} onClose={() => setUploading(false)} />
      <SqlViewDrawer open={sqlView !== null} datasourceId={datasourceId} view={sqlView?.view ?? null} onClose={() => setSqlView(null)} />
      <Form form={form} initialValues={initialValues} layout="vertical" size="small" className="ds-left-form" data-testid="ds-form">
        <Form.Item name="cubeName" label={em.name}>
          <Input placeholder={em.namePlaceholder} maxLength={100} />
        </Form.Item>
        <CategoryField form={form} categories={categories.data ?? []} />
        <Form.Item name="remark" label={em.description}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Button type="primary" block loading={saving} onClick={onSave} data-testid="ds-save">
          {em.save}
        </Button>
      </Form>
    </div>
  );
}
