import { Button, Input, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { am } from '../messages.ts';
import type { HeaderRow } from './useDataApiEditor.ts';

/** apiHeaders as a list of k and v (spec 2 §3); rows with an empty name are not sent. */
export function HeaderList({ value, onChange }: { value: HeaderRow[]; onChange: (rows: HeaderRow[]) => void }) {
  const set = (i: number, row: Partial<HeaderRow>) => onChange(value.map((r, j) => (j === i ? { ...r, ...row } : r)));
  return (
    <div data-testid="dataapi-headers">
      {value.map((row, i) => (
        <Space.Compact key={i} block style={{ marginBottom: 8 }}>
          <Input placeholder={am.headerName} value={row.k} onChange={(e) => set(i, { k: e.target.value })} style={{ width: '40%' }} />
          <Input placeholder={am.headerValue} value={row.v} onChange={(e) => set(i, { v: e.target.value })} />
          <Button icon={<DeleteOutlined />} aria-label={am.delete} onClick={() => onChange(value.filter((_, j) => j !== i))} />
        </Space.Compact>
      ))}
      <Button type="dashed" block icon={<PlusOutlined />} onClick={() => onChange([...value, { k: '', v: '' }])}>
        {am.addHeader}
      </Button>
    </div>
  );
}
