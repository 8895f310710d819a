import { beforeAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Ppt } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { chartAt, makeBoard, salesData } from '../board/runtime/test-fixtures.ts';
import ShareOpenPage from './ShareOpenPage.tsx';
import { loadChartParts } from '../../shared/charts/lazy-parts.tsx';

// antd renders slowly on a loaded machine: wait on conditions for longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

// The slideshow viewer and the charts' parts load on demand: fetched once here, so a test waits only for React.
beforeAll(() => Promise.all([import('../ppt/viewer/PptViewer.tsx'), loadChartParts()]), 120_000);

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const board = makeBoard([chartAt('intro', 'text', '说明', { x: 0, y: 0, w: 900, h: 200 }, { text: '本月经营概况' })], {}, { id: 5, title: '销售驾驶舱' });

const slideshow: Ppt = {
  id: 3,
  ppName: '月度汇报',
  ppMonth: null,
  cateId: 0,
  visualIds: [5, 6, 7],
  settings: { autoPlay: false, interval: 10 },
  visualType: 0,
  sourceId: null,
  publicStatus: 1,
  createUserId: 2,
  createUserName: '张三',
  createTime: '2026-05-01T00:00:00.000Z',
  updateTime: '2026-05-01T00:00:00.000Z',
  editable: false,
};

function Pages() {
  return (
    <Routes>
      <Route path="/share/:code" element={<ShareOpenPage />} />
      <Route path="/login" element={<div>登录页</div>} />
    </Routes>
  );
}

describe('share page', () => {
  it('asks for the password, says 密码错误 inline, then shows the board through the link’s token only', async () => {
    const calls = mockFetch((c: Call) => {
      if (c.url === '/api/share/open/Ab3') {
        const password = (c.body as { password?: string }).password;
        if (!password) return fail(401, '请输入访问密码', { reason: 'password' });
        if (password !== 'Zj2026') return fail(403, '密码错误', { reason: 'passwordWrong' });
        return ok({ token: 'scoped-1', expiresAt: '2030-01-01T00:00:00.000Z', dataType: 'visual', dataId: 5, title: '销售驾驶舱', linkType: 0, boardIds: [5] });
      }
      if (c.url === '/api/board/boards/5') return ok(board);
      if (c.url === '/api/board/chart-data') return ok(salesData([['浙江', 1]]));
      return undefined;
    });
    renderWithApp(<Pages />, { path: '/share/Ab3', info: null });
    const input = await screen.findByTestId('share-password-input');
    expect(screen.getByText('此分享需要访问密码')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByTestId('share-password-submit'));
    await waitFor(() => expect(screen.getByTestId('share-password-error').textContent).toBe('密码错误'));
    fireEvent.change(input, { target: { value: 'Zj2026' } });
    fireEvent.click(screen.getByTestId('share-password-submit'));
    expect(await screen.findByText('本月经营概况')).toBeTruthy();
    expect(screen.getByTestId('board-title').textContent).toBe('销售驾驶舱');
    const boardCalls = calls.filter((c) => c.url.startsWith('/api/board/'));
    expect(new Set(boardCalls.map((c) => c.headers.Authorization))).toEqual(new Set(['Bearer scoped-1']));
    expect(localStorage.getItem('shutu.token')).toBeNull();
    expect(screen.queryByText('登录页')).toBeNull();
  });

  it('opens a shared slideshow in the full viewer: keys page, 已经是最后一个了 at the end, no signed-in actions, the watermark', async () => {
    const visualList = [5, 6, 7].map((id) => ({ id, kind: 'visual' as const, type: 'screen' as const, title: `第${id}屏`, backgroundUrl: null }));
    const calls = mockFetch((c: Call) => {
      if (c.url === '/api/share/open/Pp1') {
        // Board 7 was added after the link was opened: the token may not read it.
        return ok({ token: 'scoped-ppt', expiresAt: '2030-01-01T00:00:00.000Z', dataType: 'ppt', dataId: 3, title: '月度汇报', linkType: 0, boardIds: [5, 6] });
      }
      if (c.url === '/api/ppt/slideshows/3') return ok({ detail: slideshow, visualList });
      const boardMatch = /^\/api\/board\/boards\/(\d+)$/.exec(c.url);
      if (boardMatch) {
        const id = Number(boardMatch[1]);
        return ok(makeBoard([chartAt('intro', 'text', '说明', { x: 0, y: 0, w: 900, h: 200 }, { text: `第${id}屏正文` })], {}, { id, title: `第${id}屏` }));
      }
      return undefined;
    });
    renderWithApp(<Pages />, { path: '/share/Pp1?watermark=1&text=内部', info: null });
    expect(await screen.findByText('第5屏正文')).toBeTruthy();
    expect(screen.getByTestId('ppt-name').textContent).toBe('月度汇报');
    expect(screen.getAllByTestId('ppt-number')).toHaveLength(2);
    for (const id of ['ppt-subscribe', 'ppt-export-pdf', 'ppt-favourite', 'ppt-archive']) expect(screen.queryByTestId(id)).toBeNull();
    expect(screen.getByTestId('ppt-fullscreen')).toBeTruthy();
    expect(screen.getByTestId('ppt-watermark').getAttribute('data-text')).toBe('内部');

    fireEvent.keyDown(window, { keyCode: 39, key: 'ArrowRight' });
    expect(await screen.findByText('第6屏正文')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('ppt-current-title').textContent).toBe('第6屏'));
    fireEvent.keyDown(window, { keyCode: 39, key: 'ArrowRight' });
    expect(await screen.findByText('已经是最后一个了')).toBeTruthy();
    expect(screen.getByTestId('ppt-current-title').textContent).toBe('第6屏');
    // Everything after the open call went with the link's token; board 7 was never asked for.
    const contentCalls = calls.filter((c) => c.url !== '/api/share/open/Pp1');
    expect(new Set(contentCalls.map((c) => c.headers.Authorization))).toEqual(new Set(['Bearer scoped-ppt']));
    expect(contentCalls.some((c) => c.url === '/api/board/boards/7')).toBe(false);
    expect(localStorage.getItem('shutu.token')).toBeNull();
  });

  it('shows 链接已过期 for an expired link and 链接不存在或已失效 for a disabled one', async () => {
    mockFetch((c) =>
      c.url === '/api/share/open/old'
        ? fail(410, '链接已过期', { reason: 'expired' })
        : c.url === '/api/share/open/off'
          ? fail(404, '链接不存在或已失效', { reason: 'gone' })
          : undefined,
    );
    renderWithApp(<Pages />, { path: '/share/old', info: null });
    expect(await screen.findByText('链接已过期')).toBeTruthy();
    expect(screen.getByText('请联系分享人重新生成链接')).toBeTruthy();
    cleanup();
    renderWithApp(<Pages />, { path: '/share/off', info: null });
    expect(await screen.findByText('链接不存在或已失效')).toBeTruthy();
  });

  it('sends a visitor without a session to the login page for an account-matching link, keeping the way back', async () => {
    const calls = mockFetch((c) => (c.url === '/api/share/open/acc' ? fail(401, '该链接需要登录后访问', { reason: 'login' }) : undefined));
    renderWithApp(<Pages />, { path: '/share/acc' });
    expect(await screen.findByText('登录页')).toBeTruthy();
    // The stored session went with the open call (it had expired on the server) and is dropped.
    expect(calls[0]!.headers.Authorization).toBe('Bearer test-token');
    expect(localStorage.getItem('shutu.token')).toBeNull();
  });
});
