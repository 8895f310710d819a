import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { BOARD_STATE_ATTRIBUTE } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { chartAt, makeBoard, salesData } from '../runtime/test-fixtures.ts';
import BoardPreviewPage from './BoardPreviewPage.tsx';
import ChartJsonPage from './ChartJsonPage.tsx';
import OpenViewPage from './OpenViewPage.tsx';
import { loadChartParts } from '../../../shared/charts/lazy-parts.tsx';

// The charts' parts load on demand (lazy-parts.tsx): fetched once here, so a test waits only for React.
beforeAll(() => loadChartParts(), 120_000);

// antd renders slowly on a loaded machine: wait on conditions for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const board = makeBoard(
  [
    chartAt('summary', 'table', '各省汇总', { x: 0, y: 700, w: 900, h: 300, anchor: '省份汇总' }),
    chartAt('intro', 'text', '说明', { x: 0, y: 0, w: 900, h: 200, anchor: '总览' }, { text: '本月经营概况' }),
    chartAt('plain', 'text', '备注', { x: 1000, y: 0 }, { text: '无锚点' }),
    chartAt('popup', 'table', '明细弹窗', { isDiglog: true, anchor: '弹窗不列出' }),
  ],
  { anchorTextColor: '#ff0000', anchorTextSize: 18 },
);

const state = () => document.documentElement.getAttribute(BOARD_STATE_ATTRIBUTE);

/** The board answers after `release()` so the loading state can be seen. */
function serve(answer: () => ReturnType<typeof ok> = () => ok(board)) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const calls = mockFetch((c: Call) => {
    if (c.url === '/api/board/boards/5') return answer();
    if (c.url === '/api/board/chart-data') return ok(salesData([['浙江', 120]]));
    return undefined;
  });
  const mocked = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === '/api/board/boards/5') await held;
    return mocked(input, init);
  });
  return { calls, release: () => release() };
}

function Pages() {
  return (
    <Routes>
      <Route path="/newbi/preview/:id" element={<BoardPreviewPage />} />
      <Route path="/openview/:id" element={<OpenViewPage />} />
      <Route path="/newbi/json/:boardId/:chartKey" element={<ChartJsonPage />} />
    </Routes>
  );
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('board preview page', () => {
  it('shows 拼命加载中 with state loading, then the board, and goes ready when every chart has rendered', async () => {
    const { release } = serve();
    renderWithApp(<Pages />, { path: '/newbi/preview/5' });
    expect(screen.getByText('拼命加载中')).toBeTruthy();
    await waitFor(() => expect(state()).toBe('loading'));
    release();
    expect((await screen.findByTestId('board-title')).textContent).toBe('销售驾驶舱');
    await waitFor(() => expect(state()).toBe('ready'));
    expect(window.__shutuBoardState).toBe('ready');
    expect(screen.getByText('本月经营概况')).toBeTruthy();
    // The dialog chart is a button in the top bar, not on the canvas.
    expect(screen.getByTestId('board-dialog-button').textContent).toContain('明细弹窗');
    expect(screen.queryByTestId('board-item-popup')).toBeNull();
    // No linked charts: no 清除联动.
    expect(screen.queryByTestId('board-clear-linkage')).toBeNull();
    expect(screen.getByTestId('board-fullscreen').textContent).toContain('全屏');
  });

  it('lists anchored charts top to bottom plus 返回顶部↑ in the 导航 popover, in the board anchor style', async () => {
    const { release } = serve();
    release();
    renderWithApp(<Pages />, { path: '/newbi/preview/5' });
    fireEvent.click(await screen.findByTestId('board-nav'));
    const list = await screen.findByTestId('board-anchor-list');
    const labels = [...list.querySelectorAll('button')].map((b) => b.textContent);
    expect(labels).toEqual(['总览', '省份汇总', '返回顶部↑']);
    const first = list.querySelector<HTMLElement>('[data-testid="board-anchor"]')!;
    expect(first.style.color).toBe('rgb(255, 0, 0)');
    expect(first.style.fontSize).toBe('18px');
    expect(screen.getByText('导航', { selector: '.ant-popover-title, .ant-popover-title *' })).toBeTruthy();
  });

  it('shows 没有此大屏权限 when refused (403) and when missing (404), with state refused', async () => {
    const { release } = serve(() => fail(403, '没有此大屏权限'));
    release();
    renderWithApp(<Pages />, { path: '/newbi/preview/5' });
    expect(await screen.findByText('没有此大屏权限')).toBeTruthy();
    await waitFor(() => expect(state()).toBe('refused'));
    cleanup();
    expect(state()).toBeNull();

    const missing = serve(() => fail(404, '报表不存在'));
    missing.release();
    renderWithApp(<Pages />, { path: '/newbi/preview/5' });
    expect(await screen.findByText('没有此大屏权限')).toBeTruthy();
    expect(screen.queryByText('报表不存在')).toBeNull();
    await waitFor(() => expect(state()).toBe('refused'));
  });
});

describe('open view page (token in the address)', () => {
  it('calls the API with the token of the address, leaving the stored session alone', async () => {
    const { calls, release } = serve();
    release();
    renderWithApp(<Pages />, { path: '/openview/5?token=view-abc', info: null });
    await screen.findByText('本月经营概况');
    await waitFor(() => expect(state()).toBe('ready'));
    const auth = calls.filter((c) => c.url.startsWith('/api/board/')).map((c) => c.headers.Authorization);
    expect(auth.length).toBeGreaterThan(1);
    expect(new Set(auth)).toEqual(new Set(['Bearer view-abc']));
    expect(localStorage.getItem('shutu.token')).toBeNull();
    // No top bar: only the corner bar (anchors exist, so 导航 stays).
    expect(screen.queryByTestId('board-topbar')).toBeNull();
    expect(screen.getByTestId('board-nav')).toBeTruthy();
  });

  it('an expired token shows 链接已失效 instead of sending anyone to the login page', async () => {
    const { release } = serve(() => fail(401, '登录已过期'));
    release();
    renderWithApp(<Pages />, { path: '/openview/5?token=old', info: null });
    expect(await screen.findByText('链接已失效')).toBeTruthy();
    await waitFor(() => expect(state()).toBe('refused'));
    expect(screen.queryByText('登录页')).toBeNull();
  });

  it('without a token: 链接已失效 and no call', async () => {
    const { calls } = serve();
    renderWithApp(<Pages />, { path: '/openview/5', info: null });
    expect(await screen.findByText('链接已失效')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});

describe('chart JSON viewer', () => {
  it('shows the chart data as coloured JSON with the row count', async () => {
    const { calls, release } = serve();
    release();
    renderWithApp(<Pages />, { path: '/newbi/json/5/summary' });
    const tree = await screen.findByTestId('json-tree');
    expect(screen.getByTestId('json-row-count').textContent).toBe('共 1 行');
    expect(tree.querySelector('.json-key')!.textContent).toBe('"dataList"');
    expect([...tree.querySelectorAll('.json-string')].map((s) => s.textContent)).toContain('"浙江"');
    expect([...tree.querySelectorAll('.json-number')].map((s) => s.textContent)).toContain('120');
    const request = calls.find((c) => c.url === '/api/board/chart-data')!.body;
    expect(request).toEqual({ boardId: 5, chartKey: 'summary', mode: 'aggregate' });
    // Folding the root leaves its item count.
    fireEvent.click(tree.querySelector('[data-testid="json-toggle"]')!);
    expect(tree.textContent).toContain('5 项');
  });

  it('shows 没有此大屏权限 when the board is refused', async () => {
    const { release } = serve(() => fail(403, '没有此大屏权限'));
    release();
    renderWithApp(<Pages />, { path: '/newbi/json/5/summary' });
    expect(await screen.findByText('没有此大屏权限')).toBeTruthy();
  });
});
