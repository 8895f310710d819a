import { useState } from 'react';
import { Card, DatePicker, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { MARKET_RETENTION_MONTHS, type MarketKeepRow, type MarketTask } from '@shutu/contracts';
import { fetchKeep, marketKeys } from './api.ts';
import { mk } from './messages.ts';

/** The 24-month retention table of a type-2 task, with its own month range (default: the push month to this month). */
export function RetentionTable({ task }: { task: MarketTask }) {
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs(task.pushTime).startOf('month'), dayjs().startOf('month')]);
  const [start, end] = [range[0].format('YYYYMM'), range[1].format('YYYYMM')];
  const keep = useQuery({ queryKey: marketKeys.keep(task.taskId, start, end), queryFn: () => fetchKeep(task, start, end) });
  const columns = [
    { key: 'month', title: mk.month, dataIndex: 'month', fixed: 'left' as const, width: 90 },
    { key: 'users', title: mk.orderUsers, dataIndex: 'orderUsers', fixed: 'left' as const, width: 100 },
    ...Array.from({ length: MARKET_RETENTION_MONTHS }, (_, i) => ({
      key: `m${i + 1}`,
      title: mk.keepN(i + 1),
      width: 96,
      render: (_: unknown, r: MarketKeepRow) => r.retained[i] ?? '—',
    })),
  ];
  return (
    <Card
      size="small"
      className="market-card"
      title={mk.keepTitle}
      extra={<DatePicker.RangePicker picker="month" allowClear={false} value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />}
    >
      <div data-testid="market-keep">
        <Table
          rowKey="month"
          size="small"
          loading={keep.isFetching}
          columns={columns}
          dataSource={keep.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
        />
      </div>
    </Card>
  );
}
