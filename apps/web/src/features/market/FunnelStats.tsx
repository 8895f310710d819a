import { useState } from 'react';
import { Card, Segmented, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { MARKET_TABLE_HEIGHT, type MarketFunnelRow, type MarketTask } from '@shutu/contracts';
import { EChart } from '../../shared/charts/index.ts';
import { fetchFunnel, marketKeys } from './api.ts';
import { funnelOption, type FunnelView } from './chart-options.ts';
import { dayLabel, mk } from './messages.ts';
import { RetentionTable } from './RetentionTable.tsx';

const STEP_KEYS = ['productViews', 'unifiedAuth', 'orderAttempts', 'orderSuccess'] as const;
const STEP_TITLES = [mk.views, mk.auth, mk.attempts, mk.success];

/** Type 2 (营销漏斗): the chart toggle (bar, total, line), the funnel by day with a totals row, and the retention table. */
export function FunnelStats({ task, start, end }: { task: MarketTask; start: string; end: string }) {
  const [view, setView] = useState<FunnelView>('bar');
  const funnel = useQuery({ queryKey: marketKeys.funnel(task.taskId, start, end), queryFn: () => fetchFunnel(task, start, end) });
  const rows = funnel.data ?? [];
  const columns = [
    { key: 'dt', title: mk.dt, render: (_: unknown, r: MarketFunnelRow) => dayLabel(r.dt) },
    ...STEP_KEYS.map((key, i) => ({ key, title: STEP_TITLES[i], dataIndex: key })),
  ];
  return (
    <>
      <Card
        size="small"
        className="market-card"
        title={mk.funnelTitle}
        extra={
          <Segmented<FunnelView>
            value={view}
            onChange={setView}
            options={[
              { value: 'bar', label: mk.bar },
              { value: 'total', label: mk.total },
              { value: 'line', label: mk.line },
            ]}
          />
        }
      >
        <EChart option={funnelOption(rows, view)} style={{ height: 300 }} />
      </Card>
      <div data-testid="market-funnel">
        <Table
          rowKey="dt"
          size="small"
          loading={funnel.isFetching}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ y: MARKET_TABLE_HEIGHT }}

          summary={() => (
            <Table.Summary fixed>
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>{mk.totalRow}</Table.Summary.Cell>
                {STEP_KEYS.map((key, i) => (
                  <Table.Summary.Cell key={key} index={i + 1}>
                    {rows.reduce((a, r) => a + r[key], 0)}
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            </Table.Summary>
          )}
        />
      </div>
      <RetentionTable task={task} />
    </>
  );
}
