import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { App, Form } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DATA_API_PREVIEW_ROWS, DEFAULT_API_JS_FUNCTION, type ApiParam, type DataApi, type ShowField } from '@shutu/contracts';
import { ApiError } from '../../../shared/api.ts';
import { errorText } from '../../../shared/notify.ts';
import { dataApiKeys, fetchDataApi, previewDataApi, saveDataApi, type ApiRef } from '../api.ts';
import { am } from '../messages.ts';
import { editorPathAfterSave, fieldsFromRow, paramObject, parseNote, rowsOf, validDefault } from '../model.ts';

export interface EditorForm {
  apiName: string;
  apiKey: string;
  categoryId?: number;
  apiStatus: 0 | 1 | 2;
  remark: string;
  apiType: 1 | 2;
  datasourceId?: number;
  querySql: string;
  apiUrl: string;
  apiMethod: 'get' | 'post';
  apiParamType: 0 | 1;
  chartType: 0 | 1 | 2 | 3;
  apiJsFunction: string;
}

export interface HeaderRow {
  k: string;
  v: string;
}

export interface PreviewState {
  /** The whole answer (kept for 保存为枚举字典), its first rows for the view, or the handler's JSON. */
  data: unknown;
  rows: Record<string, unknown>[] | null;
  total: number;
  elapsedMs: number;
}

/** The address's ?id= or ?apiKey= (spec 2 §2). */
export function refOf(params: URLSearchParams): ApiRef | null {
  const id = Number(params.get('id'));
  if (Number.isInteger(id) && id > 0) return { id };
  const apiKey = params.get('apiKey');
  return apiKey ? { apiKey } : null;
}

/** Time the detail is reloaded after an update (spec 2 §4, §9). */
const RELOAD_DELAY_MS = 500;

/**
 * The /apiedit and /apiedit1 editor's state (spec 2 §4 "Data API editor"): load by id or apiKey,
 * save (add becomes update; the first save replaces the address with ?id=), preview (needs a saved
 * API) filling the fields from the first row.
 */
export function useDataApiEditor() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditorForm>();
  const ref = refOf(params);
  const detail = useQuery({ queryKey: dataApiKeys.detail(ref ?? { id: 0 }), queryFn: () => fetchDataApi(ref!), enabled: ref !== null });
  const [saved, setSaved] = useState<DataApi | null>(null);
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [apiParams, setApiParams] = useState<ApiParam[]>([]);
  const [fields, setFields] = useState<ShowField[]>([]);
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const loadedId = useRef<number | null>(null);

  useEffect(() => {
    const api = detail.data;
    if (!api || loadedId.current === api.id) return;
    loadedId.current = api.id;
    const note = parseNote(api.note);
    setSaved(api);
    setHeaders(Object.entries(api.apiHeaders).map(([k, v]) => ({ k, v })));
    setApiParams(note.params);
    setFields(note.showFields);
    form.setFieldsValue({
      apiName: api.apiName,
      apiKey: api.apiKey,
      categoryId: api.categoryId ?? undefined,
      apiStatus: api.apiStatus as EditorForm['apiStatus'],
      remark: api.remark,
      apiType: api.apiType === 2 ? 2 : 1,
      datasourceId: api.datasourceId ?? undefined,
      querySql: api.querySql ?? '',
      apiUrl: api.apiUrl ?? '',
      apiMethod: api.apiMethod,
      apiParamType: api.apiParamType as 0 | 1,
      chartType: api.chartType as EditorForm['chartType'],
      apiJsFunction: api.apiJsFunction,
    });
  }, [detail.data, form]);

  const initialValues: Partial<EditorForm> = {
    apiStatus: 1,
    apiType: params.get('type') === '2' ? 2 : 1,
    apiMethod: 'get',
    apiParamType: 0,
    chartType: 0,
    apiJsFunction: DEFAULT_API_JS_FUNCTION,
    remark: '',
    querySql: '',
    apiUrl: '',
    categoryId: Number(params.get('ws')) || undefined,
  };

  const save = async () => {
    let values: EditorForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const bad = apiParams.find((p) => p.key.trim() && !validDefault(p.datatype, p.def));
    if (bad) {
      message.warning(am.paramInvalid.replace('{key}', bad.key).replace('{type}', ''));
      return;
    }
    const external = values.apiType === 2;
    setSaving(true);
    try {
      const { data } = await saveDataApi({
        ...values,
        categoryId: values.categoryId!,
        id: saved?.id ?? null,
        datasourceId: external ? null : (values.datasourceId ?? null),
        querySql: external ? null : values.querySql,
        apiUrl: external ? values.apiUrl : null,
        chartType: external ? values.chartType : 0,
        apiHeaders: Object.fromEntries(headers.filter((h) => h.k.trim()).map((h) => [h.k.trim(), h.v])),
        note: JSON.stringify({ showFields: fields, params: apiParams.filter((p) => p.key.trim()) }),
      });
      message.success(am.saved);
      setSaved(data);
      if (!saved) {
        loadedId.current = data.id;
        navigate(editorPathAfterSave(pathname, data.id), { replace: true });
      } else {
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: dataApiKeys.all }), RELOAD_DELAY_MS);
      }
    } catch (e) {
      if (e instanceof ApiError && e.message === am.checkSyntax) message.warning(am.checkSyntax);
      else message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const runPreview = async (values: Record<string, unknown>) => {
    if (!saved) {
      message.error(am.mustSaveToPreview);
      return;
    }
    setPreviewing(true);
    try {
      const result = await previewDataApi(saved.apiKey, values, saved.apiType);
      const rows = rowsOf(result.data);
      setPreview({ data: result.data, rows: rows ? rows.slice(0, DATA_API_PREVIEW_ROWS) : null, total: result.rows, elapsedMs: result.elapsedMs });
      if (rows && rows.length > 0) setFields((current) => fieldsFromRow(rows[0], current));
    } catch (e) {
      setPreview(null);
      message.error(errorText(e));
    } finally {
      setPreviewing(false);
    }
  };

  return {
    form,
    initialValues,
    // After the first save the address changes to ?id=: the editor stays as it is while that loads.
    loading: ref !== null && detail.isLoading && saved === null,
    notFound: ref !== null && detail.isError && saved === null,
    saved,
    headers,
    setHeaders,
    apiParams,
    setApiParams,
    paramDefaults: paramObject(apiParams),
    fields,
    setFields,
    preview,
    save,
    saving,
    runPreview,
    previewing,
  };
}
export type DataApiEditorState = ReturnType<typeof useDataApiEditor>;
