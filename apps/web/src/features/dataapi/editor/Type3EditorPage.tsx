import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { App, Button, Card, Form, Result, Select, Space, Spin } from 'antd';
import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DATA_API_PREVIEW_ROWS, type ApiParam, type DataApi, type QueryParamItem, type ShowField } from '@shutu/contracts';
import { errorText } from '../../../shared/notify.ts';
import { dataApiKeys, fetchDataApi, fetchSourceColumns, fetchSourceTables, fetchUsableSources, previewDataApi, saveDataApi } from '../api.ts';
import { am } from '../messages.ts';
import { fieldsFromRow, parseNote, rowsOf } from '../model.ts';
import { PreviewCard } from './PreviewCard.tsx';
import type { PreviewState } from './useDataApiEditor.ts';
import '../dataapi.css';
import { BasicFields } from './SettingsCard.tsx';
import { QueryParamTable } from './QueryParamTable.tsx';
import { refOf } from './useDataApiEditor.ts';

interface Type3Form {
  categoryId?: number;
  apiKey?: string;
  apiName?: string;
  apiStatus: 0 | 1 | 2;
  remark: string;
  datasourceId?: number;
  queryTable?: string;
  showFields: string[];
}

/** Type 3's checks in the spec's order (spec 2 §5): the first missing one is the message. */
export function firstMissing(v: Partial<Type3Form>): string | null {
  if (!v.categoryId) return am.categoryRequired;
  if (!v.apiKey?.trim()) return am.apiKeyRequired;
  if (!v.apiName?.trim()) return am.apiNameRequired;
  if (!v.datasourceId) return am.datasourceRequired;
  if (!v.queryTable) return am.tableRequired;
  return null;
}

/** The type-3 editor (/apiedit3?id=; no id adds, spec 2 §2): basic settings, the table and its parameter list. */
export default function Type3EditorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<Type3Form>();
  const ref = refOf(params);
  const detail = useQuery({ queryKey: dataApiKeys.detail(ref ?? { id: 0 }), queryFn: () => fetchDataApi(ref!), enabled: ref !== null });
  const [saved, setSaved] = useState<DataApi | null>(null);
  const [items, setItems] = useState<QueryParamItem[]>([]);
  const [saving, setSaving] = useState(false);
  const loadedId = useRef<number | null>(null);
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const [previewing, setPreviewing] = useState(false);
  // The preview's chart fields (dimension or indicator each), filled from the first row; a view setting, not saved.
  const [chartFields, setChartFields] = useState<ShowField[]>([]);
  const datasourceId = Form.useWatch('datasourceId', form);
  const queryTable = Form.useWatch('queryTable', form);
  const sources = useQuery({ queryKey: dataApiKeys.sources, queryFn: fetchUsableSources });
  const tables = useQuery({ queryKey: dataApiKeys.tables(datasourceId ?? 0), queryFn: () => fetchSourceTables(datasourceId!), enabled: !!datasourceId });
  const columns = useQuery({
    queryKey: dataApiKeys.columns(datasourceId ?? 0, queryTable ?? ''),
    queryFn: () => fetchSourceColumns(datasourceId!, queryTable!),
    enabled: !!datasourceId && !!queryTable,
  });

  useEffect(() => {
    const api = detail.data;
    if (!api || loadedId.current === api.id) return;
    loadedId.current = api.id;
    setSaved(api);
    setItems(api.queryParam);
    form.setFieldsValue({
      categoryId: api.categoryId ?? undefined,
      apiKey: api.apiKey,
      apiName: api.apiName,
      apiStatus: api.apiStatus as 0 | 1 | 2,
      remark: api.remark,
      datasourceId: api.datasourceId ?? undefined,
      queryTable: api.queryTable ?? undefined,
      showFields: parseNote(api.note).showFields.map((f) => f.columnName),
    });
  }, [detail.data, form]);

  const save = async () => {
    const v = form.getFieldsValue(true) as Type3Form;
    const missing = firstMissing(v);
    if (missing) {
      message.warning(missing);
      void form.validateFields().catch(() => undefined);
      return;
    }
    setSaving(true);
    try {
      const note = { showFields: v.showFields.map((c) => ({ columnName: c, columnComments: c, dataType: 0 })), params: [] };
      const { data } = await saveDataApi({
        id: saved?.id ?? null,
        apiType: 3,
        categoryId: v.categoryId!,
        apiKey: v.apiKey!,
        apiName: v.apiName!,
        apiStatus: v.apiStatus,
        remark: v.remark,
        datasourceId: v.datasourceId!,
        queryTable: v.queryTable!,
        queryParam: items.filter((i) => i.columnName && i.paramName.trim()),
        note: JSON.stringify(note),
      });
      message.success(am.saved);
      setSaved(data);
      loadedId.current = data.id;
      if (!saved) navigate(`/apiedit3?id=${data.id}`, { replace: true });
      else setTimeout(() => void queryClient.invalidateQueries({ queryKey: dataApiKeys.all }), 500);
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  /** 预览 of the saved API with the values typed for its parameters (必须保存才能预览 before the first save). */
  const runPreview = async (values: Record<string, unknown>) => {
    if (!saved) return void message.error(am.mustSaveToPreview);
    setPreviewing(true);
    try {
      const result = await previewDataApi(saved.apiKey, values, 3);
      const rows = rowsOf(result.data);
      if (rows && rows.length > 0) setChartFields((current) => fieldsFromRow(rows[0], current));
      setPreview({ data: result.data, rows: rows?.slice(0, DATA_API_PREVIEW_ROWS) ?? null, total: result.rows, elapsedMs: result.elapsedMs });
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setPreviewing(false);
    }
  };
  const previewParams: ApiParam[] = (saved?.queryParam ?? []).map((q) => ({
    name: q.title || q.paramName,
    key: q.paramName,
    datatype: /^(INT|LONG|FLT)$/.test(q.columnType) ? 'number' : 'string',
    def: null,
  }));

  if (ref !== null && detail.isLoading && saved === null) return <Spin size="large" fullscreen />;
  if (ref !== null && detail.isError && saved === null) return <Result status="404" title={am.apiNotFound} />;
  const columnOptions = (columns.data ?? []).map((c) => ({ value: c.name, label: c.comment ? `${c.name}（${c.comment}）` : c.name }));

  return (
    <Form form={form} layout="vertical" initialValues={{ apiStatus: 1, remark: '', showFields: [] }} className="dataapi-editor" component="div">
      <div className="dataapi-editor-head">
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/newbi/dataapi')} aria-label={am.back} />
          <h1>{saved ? saved.apiName : am.type3Title}</h1>
        </Space>
        <Button type="primary" icon={<SaveOutlined />} onClick={save} loading={saving} data-testid="dataapi-save">
          {am.save}
        </Button>
      </div>
      <div className="dataapi-editor-body">
        <div className="dataapi-editor-main">
          <Card size="small" title={am.queryParams}>
            <QueryParamTable value={items} onChange={setItems} columns={columnOptions} />
          </Card>
          <PreviewCard
            params={previewParams}
            preview={preview}
            previewing={previewing}
            onPreview={runPreview}
            fields={chartFields}
            onFields={setChartFields}
            withChart
          />
        </div>
        <div className="dataapi-editor-right">
          <Card size="small" title={am.basicSettings}>
            <BasicFields />
            <Form.Item name="datasourceId" label={am.datasource} rules={[{ required: true, message: am.datasourceRequired }]}>
              <Select
                options={(sources.data ?? []).map((s) => ({ value: s.id, label: s.remark || s.dsDb }))}
                // Changing the data source clears the table (spec 2 §4).
                onChange={() => form.setFieldsValue({ queryTable: undefined, showFields: [] })}
                data-testid="dataapi-datasource"
              />
            </Form.Item>
            <Form.Item name="queryTable" label={am.queryTable} rules={[{ required: true, message: am.tableRequired }]}>
              <Select
                showSearch
                options={(tables.data ?? []).map((t) => ({ value: t.name, label: t.comment ? `${t.name}（${t.comment}）` : t.name }))}
                data-testid="dataapi-table"
              />
            </Form.Item>
            <Form.Item name="showFields" label={am.showFields} extra={am.showFieldsHint}>
              <Select mode="multiple" allowClear options={columnOptions} />
            </Form.Item>
          </Card>
        </div>
      </div>
    </Form>
  );
}
