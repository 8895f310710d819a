import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Home, HomeItem, UsableDataSource } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../test/render.tsx';
import { HomePage } from './HomePage.tsx';

const warehouse: UsableDataSource = { id: 1, dsDb: '示例数据仓库', type: 'duckdb', dsTypeSyl: 'DuckDB', remark: null };

const item = (over: Partial<HomeItem>): HomeItem => ({
  kind: 'board',
  id: 1,
  title: '销售概览',
  boardKind: 'visual',
  boardType: 'screen',
  pptVisualType: null,
  boardCount: null,
  backgroundUrl: null,
  ownerName: '管理员',
  time: '2026-05-01T02:30:00.000Z',
  favourite: false,
  ...over,
});

const fresh: Home = {
  recent: [
    item({ id: 3, title: '订单明细报表', boardKind: 'report', boardType: 'quick' }),
    item({ kind: 'ppt', id: 9, title: '月度汇报', boardKind: null, boardType: null, pptVisualType: 0, boardCount: 2 }),
  ],
  favouriteBoards: [],
  favouritePpts: [],
  sharedBoards: [item({ id: 5, title: '华东经营大屏', ownerName: '张三' })],
  guide: { datasource: { id: 1, name: '示例数据仓库' }, dataset: { id: 11, name: '订单分析' }, board: { id: 1, title: '销售概览' } },
};

function serve(home: Home, sources: UsableDataSource[]) {
  return mockFetch((c) => {
    if (c.url === '/api/home') return ok(home);
    if (c.url === '/api/datasource/usable') return ok(sources);
    if (c.url.startsWith('/api/home/favourite-boards/')) return ok(null, c.method === 'PUT' ? '已收藏' : '已取消收藏');
    return undefined;
  });
}

const section = (testId: string) => within(screen.getByTestId(testId));

describe('首页', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the guided path, recent items, shared boards and friendly empty sections', async () => {
    serve(fresh, [warehouse]);
    renderWithApp(<HomePage />, { path: '/home' });

    expect(await screen.findByText('您好，管理员')).toBeTruthy();
    const guide = within(await screen.findByTestId('home-guide'));
    expect(guide.getByText('看示例数据源').closest('a')?.getAttribute('href')).toBe('/system/datasource');
    expect(guide.getByText('打开示例数据集').closest('a')?.getAttribute('href')).toBe('/newbi/dataset/edit?id=11');
    expect(guide.getByText('打开示例大屏').closest('a')?.getAttribute('href')).toBe('/newbi/preview/1');

    const recent = section('home-recent');
    expect(recent.getByText('订单明细报表').closest('a')?.getAttribute('href')).toBe('/newbi/preview/3');
    expect(recent.getByText('月度汇报').closest('a')?.getAttribute('href')).toBe('/newbi/ppt/view/9/0');
    expect(recent.getByText(/幻灯片 · 2 个大屏/)).toBeTruthy();
    expect(section('home-shared').getByText('华东经营大屏')).toBeTruthy();
    expect(section('home-favourite-boards').getByText('还没有收藏的大屏：点击大屏卡片右上角的星标即可收藏')).toBeTruthy();
    expect(section('home-favourite-ppts').getByText('还没有收藏的幻灯片：在幻灯片播放页点击「收藏幻灯片」')).toBeTruthy();

    expect(await screen.findByTestId('home-new-dataset')).toBeTruthy();
    expect(screen.getByTestId('dataset-upload-file').textContent).toContain('上传文件');
    expect(screen.getByTestId('home-new-board').textContent).toContain('新建大屏');
  });

  it('stars a board from its card', async () => {
    const calls = serve(fresh, [warehouse]);
    renderWithApp(<HomePage />, { path: '/home' });
    fireEvent.click(await screen.findByRole('button', { name: '收藏 华东经营大屏' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/api/home/favourite-boards/5')).toBe(true));
    // The sections are read again, so the board moves into 收藏的大屏.
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/home').length).toBe(2));
  });

  it('offers a member without a usable data source only 新建大屏, and no guide once they have their own work', async () => {
    serve({ ...fresh, guide: null, recent: [], sharedBoards: [] }, []);
    renderWithApp(<HomePage />, { path: '/home', info: user({ isAdministrator: false, name: '李四' }) });
    expect(await screen.findByText('您好，李四')).toBeTruthy();
    expect(await screen.findByText('还没有访问记录：打开一个大屏或幻灯片，它就会出现在这里')).toBeTruthy();
    expect(screen.getByText('暂无他人通过权限组共享给您的大屏')).toBeTruthy();
    expect(screen.queryByTestId('home-guide')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('home-new-board')).toBeTruthy());
    expect(screen.queryByTestId('home-new-dataset')).toBeNull();
    expect(screen.queryByTestId('dataset-upload-file')).toBeNull();
  });

  it('lists the to-dos of the approval workflow, each opening its approval page (issue 23)', async () => {
    mockFetch((c) => {
      if (c.url === '/api/home') return ok(fresh);
      if (c.url === '/api/datasource/usable') return ok([warehouse]);
      if (c.url.startsWith('/api/blade-flow/work/todo-list'))
        return ok({
          records: [
            {
              taskId: 't1',
              processInstanceId: 'p1',
              processDefinitionId: 'leave:1:abc',
              processDefinitionName: '请假流程',
              businessId: 'b1',
              starterName: '张三',
              activityName: '审批人审批',
              assigneeName: '管理员',
              status: 'running',
              createTime: '2026-12-01T01:00:00.000Z',
              endTime: null,
              comment: null,
            },
          ],
          total: 1,
          current: 1,
          size: 5,
        });
      return undefined;
    });
    renderWithApp(<HomePage />, { path: '/home' });
    const todos = within(await screen.findByTestId('home-todos'));
    expect(todos.getByText('我的待办（1）')).toBeTruthy();
    expect(todos.getByText('张三的请假流程').closest('a')?.getAttribute('href')).toBe(
      '/work/process/leave/handle?taskId=t1&processInstanceId=p1&businessId=b1',
    );
  });
});
