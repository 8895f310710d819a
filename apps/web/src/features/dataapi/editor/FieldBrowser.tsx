import { useState } from 'react';
import { Empty, Form, Input, Select, Tooltip, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { DataSourceColumn } from '@shutu/contracts';
import { dataApiKeys, fetchSourceColumns, fetchSourceTables, fetchUsableSources } from '../api.ts';
import { am } from '../messages.ts';

const tableName = (t: { schema: string; name: string }) => (t.schema && t.schema !== 'main' && t.schema !== 'public' ? `${t.schema}.${t.name}` : t.name);

function FieldList({ title, columns, onInsert }: { title: string; columns: DataSourceColumn[]; onInsert: (text: string) => void }) {
  return (
    <div style={{ marginBottom: 12 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {title}
      </Typography.Text>
      {columns.map((c) => (
        <div
          key={c.name}
          className="dataapi-field"
          draggable
          onDragStart={(e) => e.dataTransfer.setData('text/plain', c.name)}
          data-testid={`dataapi-browser-field-${c.name}`}
        >
          <span className="dataapi-field-name" title={c.comment || c.name}>
            {c.comment ? `${c.comment}（${c.name}）` : c.name}
          </span>
          <Tooltip title={am.insertField}>
            <CopyOutlined aria-label={am.insertField} onClick={() => onInsert(c.name)} data-testid={`dataapi-insert-${c.name}`} />
          </Tooltip>
        </div>
      ))}
    </div>
  );
}

/**
 * The field browser (spec 2 §2): database selector (the API's data source), searchable table
 * selector, field filter, dimensions and indicators; the copy icon inserts the name into the SQL.
 * Changing the data source clears the chosen table (spec 2 §4).
 */
export function FieldBrowser({ onInsert }: { onInsert: (text: string) => void }) {
  const form = Form.useFormInstance();
  const datasourceId = Form.useWatch<number | undefined>('datasourceId', form);
  const [table, setTable] = useState<string | undefined>();
  const [filter, setFilter] = useState('');
  const sources = useQuery({ queryKey: dataApiKeys.sources, queryFn: fetchUsableSources });
  const tables = useQuery({ queryKey: dataApiKeys.tables(datasourceId ?? 0), queryFn: () => fetchSourceTables(datasourceId!), enabled: !!datasourceId });
  const columns = useQuery({
    queryKey: dataApiKeys.columns(datasourceId ?? 0, table ?? ''),
    queryFn: () => fetchSourceColumns(datasourceId!, table!),
    enabled: !!datasourceId && !!table,
  });
  const shown = (columns.data ?? []).filter((c) => `${c.name} ${c.comment}`.toLowerCase().includes(filter.trim().toLowerCase()));

  return (
    <div data-testid="dataapi-field-browser">
      <Form.Item name="datasourceId" rules={[{ required: true, message: am.datasourceRequired }]} style={{ marginBottom: 8 }}>
        <Select
          placeholder={am.chooseSource}
          loading={sources.isLoading}
          options={(sources.data ?? []).map((s) => ({ value: s.id, label: s.remark || s.dsDb }))}
          onChange={() => setTable(undefined)}
          data-testid="dataapi-datasource"
        />
      </Form.Item>
      <Select
        showSearch
        allowClear
        placeholder={am.chooseTable}
        value={table}
        onChange={setTable}
        loading={tables.isFetching}
        options={(tables.data ?? []).map((t) => ({ value: tableName(t), label: t.comment ? `${tableName(t)}（${t.comment}）` : tableName(t) }))}
        style={{ width: '100%', marginBottom: 8 }}
        data-testid="dataapi-table-select"
      />
      <Input.Search allowClear placeholder={am.filterFields} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 8 }} />
      {table ? (
        <>
          <FieldList title={am.dimensions} columns={shown.filter((c) => c.viewDataType !== 'NUMBER')} onInsert={onInsert} />
          <FieldList title={am.indicators} columns={shown.filter((c) => c.viewDataType === 'NUMBER')} onInsert={onInsert} />
        </>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={am.noFields} />
      )}
    </div>
  );
}
