import { Card, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { MARKET_TABLE_HEIGHT, type MarketDailyRow, type MarketTask } from '@shutu/contracts';
import { EChart } from '../../shared/charts/index.ts';
import { fetchDaily, marketKeys } from './api.ts';
import { rateOption } from './chart-options.ts';
import { dayLabel, mk, percent } from './messages.ts';

/** Types 1 (激活) and 3 (领取): the bar chart of rate and unsubscribe rate and the daily tracking table (280px). */
export function DailyStats({ task, start, end }: { task: MarketTask; start: string; end: string }) {
  const daily = useQuery({ queryKey: marketKeys.daily(task.taskId, start, end), queryFn: () => fetchDaily(task, start, end) });
  const rows = daily.data ?? [];
  const activation = task.taskType === 1;
  const columns = [
    { key: 'dt', title: mk.dt, render: (_: unknown, r: MarketDailyRow) => dayLabel(r.dt) },
    { key: 'sends', title: mk.sends, dataIndex: 'total_send_message' },
    { key: 'n', title: activation ? mk.activates : mk.receives, dataIndex: activation ? 'activate_num' : 'receives_num' },
    {
      key: 'rate',
      title: activation ? mk.activateRate : mk.receiveRate,
      render: (_: unknown, r: MarketDailyRow) => percent(activation ? r.activate_num_rate : r.receive_num_rate),
    },
    { key: 'cancels', title: mk.cancels, dataIndex: 'cancels_num' },
    { key: 'cancelRate', title: mk.cancelRate, render: (_: unknown, r: MarketDailyRow) => percent(r.cancel_num_rate) },
  ];
  return (
    <>
      <Card size="small" className="market-card">
        <EChart option={rateOption(rows, task.taskType)} style={{ height: 300 }} />
      </Card>
      <div data-testid="market-daily">
        <Table rowKey="dt" size="small" loading={daily.isFetching} columns={columns} dataSource={rows} pagination={false} scroll={{ y: MARKET_TABLE_HEIGHT }} />
      </div>
    </>
  );
}
