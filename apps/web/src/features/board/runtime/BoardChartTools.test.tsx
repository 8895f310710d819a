import { useState } from 'react';
import { afterEach, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { BoardChartTools } from './BoardChartTools.tsx';
import { chartAt } from './test-fixtures.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const records = () => mockFetch((c) => (c.url.startsWith('/api/export/records') ? ok({ records: [], total: 0, current: 1, size: 5 }) : undefined));
const tools = (toolsWanted: boolean) => (
  <BoardChartTools
    boardId={7}
    chart={chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 })}
    links={[]}
    allowFull
    full={false}
    onToggleFull={() => undefined}
    viewData
    toolsWanted={toolsWanted}
  />
);

it('导出 tapped before the pointer ever came over the chart still opens its popover (its code loads then)', async () => {
  records();
  renderWithApp(tools(false));
  fireEvent.click(screen.getByTestId('chart-export'));
  await screen.findByText('暂无导出记录');
});

it('once the pointer is over the chart, 导出 opens its popover as before', async () => {
  records();
  function Chart() {
    const [over, setOver] = useState(false);
    return (
      <div data-testid="chart" onPointerEnter={() => setOver(true)}>
        {tools(over)}
      </div>
    );
  }
  renderWithApp(<Chart />);
  fireEvent.pointerEnter(screen.getByTestId('chart'));
  fireEvent.click(await screen.findByTestId('chart-export'));
  await screen.findByText('暂无导出记录');
});
