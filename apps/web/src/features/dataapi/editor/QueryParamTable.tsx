import { Button, Input, InputNumber, Select, Space, Switch, Table, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { QUERY_PARAM_COLUMN_TYPES, type QueryParamItem } from '@shutu/contracts';
import { am } from '../messages.ts';

type Row = QueryParamItem & { index: number };

const baseType = (t: string) => (t.startsWith('STRING') ? 'STRING' : t);
const stringSize = (t: string) => Number(/^STRING\((\d+)\)$/.exec(t)?.[1]) || null;

/** Type-3 parameters (spec 2 §3): title, column, parameter name, column type (STRING with its size in brackets), required. */
export function QueryParamTable({
  value,
  onChange,
  columns,
}: {
  value: QueryParamItem[];
  onChange: (v: QueryParamItem[]) => void;
  columns: { value: string; label: string }[];
}) {
  const set = (i: number, patch: Partial<QueryParamItem>) => onChange(value.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const cols: TableColumnsType<Row> = [
    { title: am.colTitle, key: 'title', render: (_, p) => <Input value={p.title} onChange={(e) => set(p.index, { title: e.target.value })} /> },
    {
      title: am.colColumn,
      key: 'column',
      render: (_, p) => (
        <Select
          showSearch
          style={{ width: '100%' }}
          value={p.columnName || undefined}
          options={columns}
          onChange={(columnName: string) => set(p.index, { columnName, paramName: p.paramName || columnName })}
        />
      ),
    },
    { title: am.colParamName, key: 'param', render: (_, p) => <Input value={p.paramName} onChange={(e) => set(p.index, { paramName: e.target.value })} /> },
    {
      title: am.colColumnType,
      key: 'type',
      width: 210,
      render: (_, p) => (
        <Space.Compact>
          <Select
            style={{ width: 110 }}
            value={baseType(p.columnType)}
            options={QUERY_PARAM_COLUMN_TYPES.map((t) => ({ value: t, label: t }))}
            onChange={(t: string) => set(p.index, { columnType: t })}
          />
          {baseType(p.columnType) === 'STRING' && (
            <InputNumber
              min={1}
              style={{ width: 90 }}
              placeholder="长度"
              value={stringSize(p.columnType)}
              onChange={(n) => set(p.index, { columnType: n ? `STRING(${n})` : 'STRING' })}
            />
          )}
        </Space.Compact>
      ),
    },
    {
      title: am.colRequired,
      key: 'required',
      width: 70,
      render: (_, p) => <Switch size="small" checked={p.optionalStatus === 1} onChange={(on) => set(p.index, { optionalStatus: on ? 1 : 0 })} />,
    },
    {
      key: 'delete',
      width: 48,
      render: (_, p) => (
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={am.delete} onClick={() => onChange(value.filter((_, j) => j !== p.index))} />
      ),
    },
  ];
  return (
    <>
      <Table<Row>
        rowKey="index"
        size="small"
        pagination={false}
        columns={cols}
        dataSource={value.map((p, index) => ({ ...p, index }))}
        locale={{ emptyText: am.noParams }}
      />
      <Button
        type="dashed"
        block
        icon={<PlusOutlined />}
        style={{ marginTop: 8 }}
        onClick={() => onChange([...value, { title: '', columnName: '', paramName: '', columnType: 'STRING', optionalStatus: 0 }])}
      >
        {am.addQueryParam}
      </Button>
    </>
  );
}
