import type { Ref } from 'react';
import { Card, Form, Input, Radio, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { API_KEY_PATTERN, DATA_API_CHART_TYPES, DATA_API_STATUS_LABELS, DATA_API_STATUSES } from '@shutu/contracts';
import { CodeEditor, type CodeEditorHandle } from '../../../shared/CodeEditor.tsx';
import { dataApiKeys, fetchCategories } from '../api.ts';
import { am } from '../messages.ts';
import { HeaderList } from './HeaderList.tsx';
import type { HeaderRow } from './useDataApiEditor.ts';

/** The category, key, name and status fields every editor shares (spec 2 §2 "API settings"; type 3's order of checks). */
export function BasicFields() {
  const categories = useQuery({ queryKey: dataApiKeys.categories, queryFn: fetchCategories });
  return (
    <>
      <Form.Item name="categoryId" label={am.category} rules={[{ required: true, message: am.categoryRequired }]}>
        <Select
          placeholder={am.category}
          options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.categoryName }))}
          data-testid="dataapi-category"
        />
      </Form.Item>
      <Form.Item
        name="apiKey"
        label={am.apiKey}
        rules={[
          { required: true, whitespace: true, message: am.apiKeyRequired },
          { pattern: API_KEY_PATTERN, message: am.apiKeyInvalid },
        ]}
      >
        <Input maxLength={100} data-testid="dataapi-key" />
      </Form.Item>
      <Form.Item name="apiName" label={am.apiName} rules={[{ required: true, whitespace: true, message: am.apiNameRequired }]}>
        <Input maxLength={100} data-testid="dataapi-name" />
      </Form.Item>
      <Form.Item name="apiStatus" label={am.status}>
        <Select options={DATA_API_STATUSES.map((s) => ({ value: s, label: DATA_API_STATUS_LABELS[s] }))} />
      </Form.Item>
      <Form.Item name="remark" label={am.remark}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
    </>
  );
}

interface Props {
  sqlRef: Ref<CodeEditorHandle>;
  headers: HeaderRow[];
  onHeaders: (rows: HeaderRow[]) => void;
}

/** API settings (spec 2 §2): basics, then the SQL (database) or URL, method, headers and JS handler (external). */
export function SettingsCard({ sqlRef, headers, onHeaders }: Props) {
  const apiType = Form.useWatch<1 | 2>('apiType');
  const method = Form.useWatch<'get' | 'post'>('apiMethod');
  return (
    <Card size="small" title={am.basicSettings}>
      <BasicFields />
      <Form.Item name="apiType" label={am.source}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 1, label: am.sourceDatabase },
            { value: 2, label: am.sourceExternal },
          ]}
          data-testid="dataapi-type"
        />
      </Form.Item>
      {apiType === 2 ? (
        <>
          <Form.Item name="apiUrl" label={am.url} rules={[{ required: true, whitespace: true, message: am.urlRequired }]}>
            <Input placeholder="https://" data-testid="dataapi-url" />
          </Form.Item>
          <Form.Item name="apiMethod" label={am.method}>
            <Radio.Group
              options={[
                { value: 'get', label: 'GET' },
                { value: 'post', label: 'POST' },
              ]}
            />
          </Form.Item>
          {method === 'post' && (
            <Form.Item name="apiParamType" label={am.paramType}>
              <Radio.Group
                options={[
                  { value: 0, label: am.paramTypeJson },
                  { value: 1, label: am.paramTypeForm },
                ]}
              />
            </Form.Item>
          )}
          <Form.Item name="chartType" label={am.chartType}>
            <Select options={DATA_API_CHART_TYPES.map((c) => ({ value: c, label: am.chartTypeLabels[c] }))} />
          </Form.Item>
          <Form.Item label={am.headers}>
            <HeaderList value={headers} onChange={onHeaders} />
          </Form.Item>
          <Form.Item name="apiJsFunction" label={am.jsFunction} extra={am.jsHint}>
            <Input.TextArea rows={6} className="dataapi-code" spellCheck={false} data-testid="dataapi-js" />
          </Form.Item>
        </>
      ) : (
        <Form.Item name="querySql" label={am.sql} rules={[{ required: true, whitespace: true, message: am.sqlRequired }]}>
          <CodeEditor ref={sqlRef} minHeight={160} placeholder={am.sqlPlaceholder} data-testid="dataapi-sql" />
        </Form.Item>
      )}
    </Card>
  );
}
