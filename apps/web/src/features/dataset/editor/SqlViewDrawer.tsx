import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Empty, Form, Input, Space, Tabs } from 'antd';
import { EyeOutlined, SaveOutlined } from '@ant-design/icons';
import type { SqlView, SqlViewPreviewResult, SqlViewSaved } from '@shutu/contracts';
import { API, SQL_NAME_MAX_LENGTH, VIEW_NAME_MAX_LENGTH, defaultSqlViewName, encodeSqlBase64, sqlViewSaveSchema, sqlViewSavedMessage } from '@shutu/contracts';
import { ApiError, http } from '../../../shared/api.ts';
import { errorText, notifyError, notifySuccess, notifyWarning } from '../../../shared/notify.ts';
import { CodeEditor, type CodeEditorHandle } from '../../../shared/CodeEditor.tsx';
import { SqlResultTable } from '../../../shared/SqlResultTable.tsx';
import { editorKeys, fetchUsableSources } from './api.ts';
import { SqlTableBrowser } from './SqlTableBrowser.tsx';
import { AiSqlButton } from '../../ai/index.ts';
import { formatMessage, sm } from './source-messages.ts';

interface Props {
  open: boolean;
  datasourceId: number;
  /** The view to edit; null adds a new one. */
  view: SqlView | null;
  onClose: () => void;
}

interface FormValues {
  sqlName: string;
  viewName: string;
  sqlStatement: string;
}

type ResultTab = 'preview' | 'error';

export const SQL_VIEW_DRAWER_HEIGHT = '70vh';

const fetchDefaultViewName = () => http.get<{ viewName: string }>(API.sqlView.defaultName).then((d) => d.viewName);
const previewSql = (datasourceId: number, sql: string) =>
  http.post<SqlViewPreviewResult>(API.sqlView.preview, { datasourceId, sqlStatement: encodeSqlBase64(sql) });
const saveSqlView = (body: { id?: number; datasourceId: number } & FormValues) => http.post<SqlViewSaved>(API.sqlView.views, body);

/**
 * SQL view editor (spec 2 §2 "SQL view editor", §5 "SQL view", §7 "SQL views"): a drawer from
 * the bottom with the table and field browser, name fields, the SQL editor, 预览 and 保存, and
 * the result tabs (预览结果 / 错误信息, the latter showing the response text of a failed preview).
 */
export function SqlViewDrawer({ open, datasourceId, view, onClose }: Props) {
  return (
    <Drawer
      open={open}
      placement="bottom"
      size={SQL_VIEW_DRAWER_HEIGHT}
      title={view ? formatMessage(sm.viewTitleEdit, { name: view.viewName }) : sm.viewTitleAdd}
      onClose={onClose}
      destroyOnHidden
      className="sqlv-drawer"
    >
      {open && <SqlViewEditor key={view?.id ?? 'new'} datasourceId={datasourceId} view={view} onClose={onClose} />}
    </Drawer>
  );
}

function SqlViewEditor({ datasourceId, view, onClose }: Omit<Props, 'open'>) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const editor = useRef<CodeEditorHandle>(null);
  const [tab, setTab] = useState<ResultTab>('preview');
  const [result, setResult] = useState<SqlViewPreviewResult | null>(null);
  const [error, setError] = useState('');
  const [previewing, setPreviewing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof FormValues, string>>>({});
  const sources = useQuery({ queryKey: editorKeys.usable, queryFn: fetchUsableSources });
  const engine = sources.data?.find((s) => s.id === datasourceId)?.type;

  // A new view is named V_SQL_YYYYMMDDHHmm by the server (the local clock when that fails).
  useEffect(() => {
    if (view) return;
    let live = true;
    fetchDefaultViewName()
      .catch(() => defaultSqlViewName())
      .then((name) => {
        if (live && !form.getFieldValue('viewName')) form.setFieldsValue({ viewName: name });
      });
    return () => {
      live = false;
    };
  }, [view, form]);

  const clearErrors = () => setErrors({});

  // Kept in state (not form.setFields) so the late default name cannot wipe a shown message.
  const showError = (field: string, message: string) => {
    if (field === 'sqlName' || field === 'viewName' || field === 'sqlStatement') setErrors({ [field]: message });
    notifyWarning(message);
  };

  const itemStatus = (field: keyof FormValues) => (errors[field] ? { validateStatus: 'error' as const, help: errors[field] } : {});

  const preview = async () => {
    const sql: string = form.getFieldValue('sqlStatement') ?? '';
    clearErrors();
    if (!sql.trim()) {
      showError('sqlStatement', sm.sqlStatementRequired);
      return;
    }
    setPreviewing(true);
    try {
      setResult(await previewSql(datasourceId, sql));
      setError('');
      setTab('preview');
    } catch (e) {
      setResult(null);
      setError(errorText(e));
      setTab('error');
    } finally {
      setPreviewing(false);
    }
  };

  const save = async () => {
    const values = form.getFieldsValue();
    clearErrors();
    const body = {
      ...(view ? { id: view.id } : {}),
      datasourceId,
      sqlName: values.sqlName ?? '',
      viewName: values.viewName ?? '',
      sqlStatement: values.sqlStatement ?? '',
    };
    const checked = sqlViewSaveSchema.safeParse(body);
    if (!checked.success) {
      const first = checked.error.issues[0]!;
      showError(String(first.path[0] ?? ''), first.message);
      return;
    }
    setSaving(true);
    try {
      const saved = await saveSqlView({ ...body, sqlName: body.sqlName.trim(), viewName: body.viewName.trim() });
      // A view datasets use: say which, and the columns they lost (their next save refuses those fields).
      if (saved.usedBy?.length) notifyWarning(sqlViewSavedMessage(saved.usedBy));
      else notifySuccess(sm.saved);
      await queryClient.invalidateQueries({ queryKey: editorKeys.views(datasourceId) });
      onClose();
    } catch (e) {
      setSaving(false);
      const field = e instanceof ApiError ? e.fields[0] : undefined;
      if (field) showError(field.field, field.message);
      else notifyError(e);
    }
  };

  return (
    <div className="sqlv-body" data-testid="sql-view-drawer">
      <SqlTableBrowser datasourceId={datasourceId} onInsert={(text) => editor.current?.insert(text)} />
      <div className="sqlv-main">
        <Form
          form={form}
          layout="inline"
          className="sqlv-form"
          onValuesChange={(changed: Partial<FormValues>) => setErrors((list) => Object.fromEntries(Object.entries(list).filter(([key]) => !(key in changed))))}
          initialValues={{ sqlName: view?.sqlName ?? '', viewName: view?.viewName ?? '', sqlStatement: view?.sqlStatement ?? '' }}
        >
          <Form.Item name="sqlName" label={sm.sqlName} required {...itemStatus('sqlName')}>
            <Input placeholder={sm.sqlNamePlaceholder} maxLength={SQL_NAME_MAX_LENGTH} data-testid="sql-view-sql-name" />
          </Form.Item>
          <Form.Item name="viewName" label={sm.viewName} required {...itemStatus('viewName')}>
            <Input placeholder={sm.viewNamePlaceholder} maxLength={VIEW_NAME_MAX_LENGTH} data-testid="sql-view-view-name" />
          </Form.Item>
          <Space className="sqlv-actions">
            <AiSqlButton datasourceId={datasourceId} onUse={(sql) => form.setFieldsValue({ sqlStatement: sql })} />
            <Button icon={<EyeOutlined />} loading={previewing} onClick={() => void preview()} data-testid="sql-view-preview">
              {sm.preview}
            </Button>
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="sql-view-save">
              {sm.save}
            </Button>
          </Space>
          <Form.Item name="sqlStatement" className="sqlv-editor-item" {...itemStatus('sqlStatement')}>
            <CodeEditor ref={editor} language="sql" engine={engine} minHeight={140} placeholder={sm.sqlPlaceholder} data-testid="sql-view-editor" />
          </Form.Item>
        </Form>
        <Tabs
          size="small"
          className="sqlv-results"
          activeKey={tab}
          onChange={(key) => setTab(key as ResultTab)}
          items={[
            { key: 'preview', label: sm.previewTab, children: <PreviewResult result={result} /> },
            {
              key: 'error',
              label: sm.errorTab,
              children: error ? (
                <pre className="sqlv-error" data-testid="sql-view-error">
                  {error}
                </pre>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={sm.noError} />
              ),
            },
          ]}
        />
      </div>
    </div>
  );
}

function PreviewResult({ result }: { result: SqlViewPreviewResult | null }) {
  if (!result) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={sm.previewEmpty} />;
  return <SqlResultTable result={result} height={240} testId="sql-view-result" />;
}
