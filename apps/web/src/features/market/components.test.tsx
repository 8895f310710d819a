import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { MarketDailyRow, MarketTask } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { funnelOption, rateOption } from './chart-options.ts';
import { DailyStats } from './DailyStats.tsx';
import { FunnelStats } from './FunnelStats.tsx';

/**
 * Marketing task statistics (issue 20, spec 3 §2/§9): rates as percentages with 2 decimals, bars
 * at most 30 wide, charts of more than 10 days zoomed to the first 10, the funnel's totals row
 * and the 24-month retention table. ECharts draws on a canvas jsdom has not: the chart shows the
 * option it was given, which the option tests check.
 */
vi.mock('../../shared/charts/index.ts', () => ({
  EChart: ({ option }: { option: { series?: { name: string }[] } }) => <div data-testid="chart">{(option.series ?? []).map((s) => s.name).join('|')}</div>,
}));

const url = (c: Call) => new URL(c.url, 'http://x');
const task = (taskType: number): MarketTask => ({
  taskId: `MT00000${taskType}`,
  missionName: `任务${taskType}`,
  taskType,
  taskTypeName: '',
  channelId: 'CH01',
  channelName: '短信',
  targetGroupNumber: 12000,
  addTime: '2026-01-01T00:00:00Z',
  pushTime: '2026-01-02T00:00:00Z',
});
const day = (i: number): MarketDailyRow => ({
  dt: `202601${String(i + 1).padStart(2, '0')}`,
  total_send_message: 1000,
  activate_num: 123,
  activate_num_rate: 0.12345,
  cancels_num: 7,
  cancel_num_rate: 0.007,
});

describe('marketing task statistics', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('bars at most 30 wide; more than 10 days zoom to the first 10; the total view sums each step', () => {
    const twelve = rateOption(
      Array.from({ length: 12 }, (_, i) => day(i)),
      1,
    ) as { series: { barMaxWidth: number }[]; dataZoom: { endValue: number }[] };
    expect(twelve.series.map((s) => s.barMaxWidth)).toEqual([30, 30]);
    expect(twelve.dataZoom).toMatchObject([{ startValue: 0, endValue: 9 }]);
    expect((rateOption([day(0)], 1) as { dataZoom: unknown[] }).dataZoom).toEqual([]);
    const rows = [
      { dt: '20260101', productViews: 10, unifiedAuth: 5, orderAttempts: 3, orderSuccess: 2 },
      { dt: '20260102', productViews: 20, unifiedAuth: 6, orderAttempts: 4, orderSuccess: 1 },
    ];
    expect((funnelOption(rows, 'total') as { series: { data: number[] }[] }).series[0]!.data).toEqual([30, 11, 7, 3]);
    expect((funnelOption(rows, 'line') as { series: { type: string }[] }).series.map((s) => s.type)).toEqual(['line', 'line', 'line', 'line']);
  });

  it('type 1: the daily table with rates as percentages to 2 decimals, for the chosen days', async () => {
    const calls = mockFetch((c) => (url(c).pathname === '/api/market/Member-activate-task' ? ok([day(0), day(1)]) : undefined));
    renderWithApp(<DailyStats task={task(1)} start="20260101" end="20260131" />);
    const table = await screen.findByTestId('market-daily');
    const first = (await within(table).findByText('2026-01-01')).closest('tr')!;
    expect(within(first).getByText('12.35%')).toBeTruthy();
    expect(within(first).getByText('0.70%')).toBeTruthy();
    expect(screen.getByTestId('chart').textContent).toBe('激活率|退订率');
    const asked = url(calls.find((c) => url(c).pathname === '/api/market/Member-activate-task')!).searchParams;
    expect([asked.get('task_id'), asked.get('start'), asked.get('end')]).toEqual(['MT000001', '20260101', '20260131']);
  });

  it('type 2: the funnel by day with its 合计 row, and the retention table of 24 months (— where not reached)', async () => {
    mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/market/marketing-task-chart')
        return ok([
          { dt: '20260101', productViews: 10, unifiedAuth: 5, orderAttempts: 3, orderSuccess: 2 },
          { dt: '20260102', productViews: 20, unifiedAuth: 6, orderAttempts: 4, orderSuccess: 1 },
        ]);
      if (path === '/api/market/marketing-task-keep')
        return ok([{ month: '202601', orderUsers: 50, retained: [40, 30, ...Array.from({ length: 22 }, () => null)] }]);
      return undefined;
    });
    renderWithApp(<FunnelStats task={task(2)} start="20260101" end="20260131" />);
    const funnel = await screen.findByTestId('market-funnel');
    await within(funnel).findByText('2026-01-02');
    const totals = within(funnel).getByText('合计').closest('tr')!;
    expect([...totals.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['合计', '30', '11', '7', '3']);
    const keep = screen.getByTestId('market-keep');
    const month = (await within(keep).findByText('202601')).closest('tr')!;
    const cells = [...month.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells.slice(0, 4)).toEqual(['202601', '50', '40', '30']);
    expect(cells).toHaveLength(26);
    expect(cells.at(-1)).toBe('—');
    expect(
      within(keep)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toContain('第24月留存');
  });
});
