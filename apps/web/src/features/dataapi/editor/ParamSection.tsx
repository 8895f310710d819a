import { Button, Input, InputNumber, Select, Table, Tabs, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { DATA_API_PARAM_DATATYPES, DATA_API_PARAM_LABELS, type ApiParam, type DataApiParamDatatype } from '@shutu/contracts';
import { am } from '../messages.ts';
import { PARAM_FORMATS, paramObject, validDefault } from '../model.ts';

type Row = ApiParam & { index: number };

/** A default typed by its datatype (spec 2 §5): numbers and timestamps as numbers, the rest as text in the spec's format. */
export function DefaultInput({
  id,
  datatype,
  value,
  onChange,
}: {
  /** Form.Item's id, so its label names the input. */
  id?: string;
  datatype: DataApiParamDatatype;
  value: ApiParam['def'];
  onChange: (v: ApiParam['def']) => void;
}) {
  if (datatype === 'number' || datatype === 'timestamp') {
    return (
      <InputNumber
        id={id}
        value={value === null || value === undefined || value === '' ? null : Number(value)}
        precision={datatype === 'timestamp' ? 0 : undefined}
        placeholder={PARAM_FORMATS[datatype].example}
        onChange={(v) => onChange(v === null ? null : v)}
        style={{ width: '100%' }}
      />
    );
  }
  const text = value === null || value === undefined ? '' : String(value);
  return (
    <Input
      id={id}
      value={text}
      placeholder={datatype === 'string' ? am.paramDefault : PARAM_FORMATS[datatype].example}
      status={validDefault(datatype, text) ? undefined : 'error'}
      maxLength={datatype === 'date' ? 8 : datatype === 'month' ? 6 : datatype === 'time' ? 8 : undefined}
      onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
    />
  );
}

/** 参数: add and delete parameters, and the JSON of their defaults (empty keys ignored; spec 2 §2, §5). */
export function ParamSection({ value, onChange }: { value: ApiParam[]; onChange: (params: ApiParam[]) => void }) {
  const set = (index: number, patch: Partial<ApiParam>) => onChange(value.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const columns: TableColumnsType<Row> = [
    { title: am.paramName, key: 'name', render: (_, p) => <Input value={p.name} onChange={(e) => set(p.index, { name: e.target.value })} /> },
    {
      title: am.paramKey,
      key: 'key',
      render: (_, p) => <Input value={p.key} onChange={(e) => set(p.index, { key: e.target.value })} data-testid={`param-key-${p.index}`} />,
    },
    {
      title: am.paramType_,
      key: 'type',
      width: 170,
      render: (_, p) => (
        <Select
          value={p.datatype}
          style={{ width: '100%' }}
          // Changing the type clears the default (spec 2 §4).
          onChange={(datatype) => set(p.index, { datatype, def: null })}
          options={DATA_API_PARAM_DATATYPES.map((d) => ({ value: d, label: DATA_API_PARAM_LABELS[d] }))}
        />
      ),
    },
    { title: am.paramDefault, key: 'def', render: (_, p) => <DefaultInput datatype={p.datatype} value={p.def} onChange={(def) => set(p.index, { def })} /> },
    {
      key: 'delete',
      width: 48,
      render: (_, p) => (
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={am.delete} onClick={() => onChange(value.filter((_, i) => i !== p.index))} />
      ),
    },
  ];
  const table = (
    <>
      <Table<Row>
        rowKey="index"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={value.map((p, index) => ({ ...p, index }))}
        locale={{ emptyText: am.noParams }}
      />
      <Button
        type="dashed"
        block
        icon={<PlusOutlined />}
        style={{ marginTop: 8 }}
        onClick={() => onChange([...value, { name: '', key: '', datatype: 'string', def: null }])}
        data-testid="dataapi-add-param"
      >
        {am.addParam}
      </Button>
    </>
  );
  return (
    <Tabs
      size="small"
      items={[
        { key: 'table', label: am.params, children: table },
        {
          key: 'json',
          label: am.paramJson,
          children: (
            <pre className="dataapi-json" data-testid="dataapi-param-json">
              {JSON.stringify(paramObject(value), null, 2)}
            </pre>
          ),
        },
      ]}
    />
  );
}
