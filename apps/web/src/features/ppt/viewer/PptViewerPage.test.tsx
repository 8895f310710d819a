import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { BOARD_STATE_ATTRIBUTE, type Ppt, type PptDetail, type PptPdfTask } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { chartAt, makeBoard, salesData } from '../../board/runtime/test-fixtures.ts';
import { PptViewer } from './PptViewer.tsx';
import PptViewerPage from './PptViewerPage.tsx';
import { SHARED_PATH_RULES, viewerFlags } from './viewer-rules.ts';

// antd renders slowly on a loaded machine: wait on conditions for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const TITLES: Record<number, string> = { 5: '销售概览', 6: '订单明细', 7: '产品分析' };

const ppt = (extra: Partial<Ppt> = {}): Ppt => ({
  id: 3,
  ppName: '月度经营幻灯片',
  ppMonth: '2026-04',
  cateId: 0,
  visualIds: [5, 6, 7],
  settings: { autoPlay: false, interval: 10 },
  visualType: 0,
  sourceId: null,
  publicStatus: 1,
  createUserId: 1,
  createUserName: '管理员',
  createTime: '2026-05-01T00:00:00.000Z',
  updateTime: '2026-05-01T00:00:00.000Z',
  editable: true,
  ...extra,
});

const detail = (extra: Partial<Ppt> = {}): PptDetail => ({
  detail: ppt(extra),
  visualList: [5, 6, 7].map((id) => ({ id, kind: 'visual' as const, type: 'screen' as const, title: TITLES[id]!, backgroundUrl: null })),
});

/** Each board: an intro text and a table whose data comes from chart-data. */
const boardOf = (id: number) =>
  makeBoard(
    [
      chartAt('intro', 'text', '说明', { x: 0, y: 0, w: 900, h: 200 }, { text: `${TITLES[id]}正文` }),
      chartAt(`t${id}`, 'table', `${TITLES[id]}表`, { x: 0, y: 300, w: 900, h: 300 }),
    ],
    {},
    { id, title: TITLES[id]! },
  );

function serve(options: { detail?: PptDetail; pdfTask?: PptPdfTask } = {}) {
  return mockFetch((c: Call) => {
    if (c.url === '/api/ppt/slideshows/3') return ok(options.detail ?? detail());
    const board = /^\/api\/board\/boards\/(\d+)$/.exec(c.url);
    if (board) return ok(boardOf(Number(board[1])));
    if (c.url === '/api/board/chart-data') return ok(salesData([['浙江', 120]]));
    if (c.url === '/api/ppt/slideshows/3/pdf' && c.method === 'POST') return ok({ ...options.pdfTask!, status: 'waiting', rendered: 0 });
    if (c.url.startsWith('/api/ppt/pdf-tasks/')) return ok(options.pdfTask!);
    return undefined;
  });
}

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

function Pages() {
  return (
    <Routes>
      <Route
        path="/newbi/ppt/view/:ppid/:id?"
        element={
          <>
            <PptViewerPage full={false} />
            <Where />
          </>
        }
      />
      <Route
        path="/fullpowerpoint/:ppid/:id?"
        element={
          <>
            <PptViewerPage full />
            <Where />
          </>
        }
      />
    </Routes>
  );
}

const state = () => document.documentElement.getAttribute(BOARD_STATE_ATTRIBUTE);
const currentTitle = () => screen.getByTestId('ppt-current-title').textContent;
const key = (keyCode: number) => fireEvent.keyDown(window, { keyCode, key: keyCode === 37 ? 'ArrowLeft' : 'ArrowRight' });
const count = (calls: Call[], url: string) => calls.filter((c) => c.url === url).length;

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('slideshow viewer', () => {
  it('pages with keys 37/39, the arrows and the numbers, warns at both ends, follows the URL and loads each dashboard once', async () => {
    const calls = serve();
    renderWithApp(<Pages />, { path: '/newbi/ppt/view/3' });
    expect((await screen.findByTestId('ppt-name')).textContent).toBe('月度经营幻灯片');
    expect(currentTitle()).toBe('销售概览');
    expect(await screen.findByText('销售概览正文')).toBeTruthy();
    await waitFor(() => expect(state()).toBe('ready'));
    // id missing → the first dashboard, and the address names it.
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/newbi/ppt/view/3/5'));

    key(37);
    expect(await screen.findByText('已经是第一个了')).toBeTruthy();
    expect(currentTitle()).toBe('销售概览');

    key(39);
    await waitFor(() => expect(currentTitle()).toBe('订单明细'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/newbi/ppt/view/3/6'));
    await waitFor(() => expect(state()).toBe('ready'));
    fireEvent.click(screen.getByTestId('ppt-next'));
    await waitFor(() => expect(currentTitle()).toBe('产品分析'));
    expect(screen.getByTestId('ppt-next').getAttribute('title')).toBe('下一页');
    expect(screen.getByTestId('ppt-prev').getAttribute('title')).toBe('上一页');
    key(39);
    expect(await screen.findByText('已经是最后一个了')).toBeTruthy();
    expect(currentTitle()).toBe('产品分析');

    // Back to the first by its number, then forward again: nothing is fetched a second time.
    fireEvent.click(screen.getAllByTestId('ppt-number')[0]!);
    await waitFor(() => expect(currentTitle()).toBe('销售概览'));
    key(39);
    await waitFor(() => expect(currentTitle()).toBe('订单明细'));
    await waitFor(() => expect(state()).toBe('ready'));
    expect([5, 6, 7].map((id) => count(calls, `/api/board/boards/${id}`))).toEqual([1, 1, 1]);
    expect(count(calls, '/api/board/chart-data')).toBe(3);
    expect(count(calls, '/api/ppt/slideshows/3')).toBe(1);
    // Visited dashboards stay mounted, only the current one shows.
    const slides = document.querySelectorAll('[data-ppt-slide]');
    expect(slides.length).toBe(3);
    expect(document.querySelector('[data-ppt-current="true"]')?.getAttribute('data-ppt-slide')).toBe('6');
  });

  it('opens on the dashboard of the address and shows every button; mine hides 收藏, archive hides 收藏 and 归档 and shows the month', async () => {
    serve();
    const first = renderWithApp(<Pages />, { path: '/newbi/ppt/view/3/7' });
    await waitFor(() => expect(currentTitle()).toBe('产品分析'));
    for (const id of ['ppt-subscribe', 'ppt-export-pdf', 'ppt-fullscreen', 'ppt-favourite', 'ppt-archive']) expect(screen.getByTestId(id)).toBeTruthy();
    expect(screen.getByTestId('ppt-subscribe').textContent).toContain('订阅幻灯片');
    // No linked charts on these boards: no 清除联动.
    expect(screen.queryByTestId('board-clear-linkage')).toBeNull();
    // The top bar collapses to a handle and comes back.
    fireEvent.click(screen.getByTestId('ppt-collapse'));
    expect(screen.queryByTestId('ppt-topbar')).toBeNull();
    fireEvent.click(screen.getByTestId('ppt-expand'));
    expect(screen.getByTestId('ppt-topbar')).toBeTruthy();
    first.unmount();

    serve();
    const mine = renderWithApp(<Pages />, { path: '/newbi/ppt/view/3/0?mine=1' });
    await screen.findByTestId('ppt-archive');
    expect(screen.queryByTestId('ppt-favourite')).toBeNull();
    mine.unmount();

    serve({ detail: detail({ visualType: 2 }) });
    renderWithApp(<Pages />, { path: '/newbi/ppt/view/3/0?archive=1&watermark=1' });
    await screen.findByTestId('ppt-export-pdf');
    expect(screen.queryByTestId('ppt-favourite')).toBeNull();
    expect(screen.queryByTestId('ppt-archive')).toBeNull();
    expect(screen.getByText('归档月份：2026-04')).toBeTruthy();
    expect(screen.getByTestId('ppt-watermark').getAttribute('data-text')).toBe('保密');
    // The query flags stay in the address when it follows the dashboard.
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/newbi/ppt/view/3/5?archive=1&watermark=1'));
  });

  it('/fullpowerpoint with a token: no top bar, the token on every call, a floating page indicator and 全屏', async () => {
    const calls = serve();
    renderWithApp(<Pages />, { path: '/fullpowerpoint/3/6?token=view-token', info: null });
    expect(await screen.findByText('订单明细正文')).toBeTruthy();
    expect(screen.queryByTestId('ppt-topbar')).toBeNull();
    expect(screen.getByTestId('ppt-page-indicator').textContent).toBe('2 / 3');
    expect(screen.getByTestId('ppt-fullscreen').textContent).toContain('全屏');
    await waitFor(() => expect(state()).toBe('ready'));
    expect(calls.every((c) => c.headers.Authorization === 'Bearer view-token')).toBe(true);
  });

  it('the viewer component for a share link: only the token’s boards, no signed-in actions, 全屏 toggles the document, the address untouched', async () => {
    serve();
    const requestFullscreen = vi.fn(async () => undefined);
    document.documentElement.requestFullscreen = requestFullscreen;
    const openWindow = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderWithApp(
      <>
        <PptViewer
          ppid={3}
          initialId={0}
          full={false}
          rules={SHARED_PATH_RULES}
          flags={viewerFlags(new URLSearchParams())}
          token="scoped"
          shared
          boardIds={[6, 7]}
        />
        <Where />
      </>,
      { path: '/share/abc', info: null },
    );
    await waitFor(() => expect(currentTitle()).toBe('订单明细'));
    expect(screen.getAllByTestId('ppt-number').map((b) => b.textContent)).toEqual(['1', '2']);
    for (const id of ['ppt-subscribe', 'ppt-export-pdf', 'ppt-favourite', 'ppt-archive']) expect(screen.queryByTestId(id)).toBeNull();
    key(39);
    await waitFor(() => expect(currentTitle()).toBe('产品分析'));
    expect(screen.getByTestId('where').textContent).toBe('/share/abc');
    fireEvent.click(screen.getByTestId('ppt-fullscreen'));
    expect(requestFullscreen).toHaveBeenCalled();
    expect(openWindow).not.toHaveBeenCalled();
    openWindow.mockRestore();
    Reflect.deleteProperty(document.documentElement, 'requestFullscreen');
  });

  it('/fullpowerpoint without a token or a session goes to the login page', async () => {
    serve();
    renderWithApp(<Pages />, { path: '/fullpowerpoint/3/6', info: null });
    expect(await screen.findByText('登录页')).toBeTruthy();
  });

  it('export: 全部 by default; 选择页 with nothing ticked disables 开始导出 with a hint beside it; then the server failure', async () => {
    const calls = serve({
      pdfTask: {
        id: 'a1b2',
        status: 'failed',
        pages: 3,
        rendered: 3,
        fileName: '月度经营幻灯片.pdf',
        errMsg: '暂无可用于导出的数据，请检查报表图片是否存在！',
        createTime: '2026-05-01T00:00:00.000Z',
      },
    });
    renderWithApp(<Pages />, { path: '/newbi/ppt/view/3/5' });
    fireEvent.click(await screen.findByTestId('ppt-export-pdf'));
    const submit = (await screen.findByTestId('ppt-pdf-submit')) as HTMLButtonElement;
    expect((screen.getByLabelText('全部') as HTMLInputElement).checked).toBe(true);
    expect(submit.disabled).toBe(false);
    expect(screen.queryByTestId('ppt-pdf-hint')).toBeNull();
    expect(screen.getByTestId('ppt-pdf-tasks-link').getAttribute('href')).toBe('/newbi/mine/export');
    // 选择页 with nothing ticked is no choice: the button is off, and says why.
    fireEvent.click(screen.getByText('选择页'));
    expect(screen.getByTestId('ppt-pdf-choose').textContent).toContain('3. 产品分析');
    expect(submit.disabled).toBe(true);
    expect(screen.getByTestId('ppt-pdf-hint').textContent).toBe('请至少选择一个大屏');
    fireEvent.click(screen.getByText('3. 产品分析'));
    expect(submit.disabled).toBe(false);
    expect(screen.queryByTestId('ppt-pdf-hint')).toBeNull();
    fireEvent.click(screen.getByText('1. 销售概览'));
    expect((screen.getByTestId('ppt-pdf-watermark-text') as HTMLInputElement).value).toBe('保密');
    fireEvent.change(screen.getByTestId('ppt-pdf-watermark-text'), { target: { value: '内部资料' } });
    fireEvent.click(screen.getByTestId('ppt-pdf-submit'));
    expect((await screen.findByTestId('ppt-pdf-error')).textContent).toBe('暂无可用于导出的数据，请检查报表图片是否存在！');
    const post = calls.find((c) => c.url === '/api/ppt/slideshows/3/pdf')!;
    // Chosen pages go in the slideshow's order.
    expect(post.body).toEqual({ page: 3, pagelist: [5, 7], watermark: true, shuiyin: '内部资料' });
  });

  it('export progress: 预计 half–full 秒 at 10 s a page and the elapsed seconds', async () => {
    const calls = serve({
      pdfTask: { id: 'c3d4', status: 'running', pages: 3, rendered: 1, fileName: '月度经营幻灯片.pdf', errMsg: null, createTime: '2026-05-01T00:00:00.000Z' },
    });
    renderWithApp(<Pages />, { path: '/newbi/ppt/view/3/5' });
    fireEvent.click(await screen.findByTestId('ppt-export-pdf'));
    // 全部 is chosen already: 开始导出 straight away.
    fireEvent.click(await screen.findByTestId('ppt-pdf-submit'));
    expect((await screen.findByTestId('ppt-pdf-estimate')).textContent).toBe('预计 15–30 秒');
    expect(screen.getByTestId('ppt-pdf-elapsed').textContent).toMatch(/^已用时 \d+ 秒$/);
    expect(await screen.findByText('已渲染 1 / 3 页')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/ppt/slideshows/3/pdf')!.body).toMatchObject({ page: 2, pagelist: [] });
  });
});
