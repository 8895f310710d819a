import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { AuthGroupPanel, settingPath } from './AuthGroupPanel.tsx';
import { bossGroup, page, salesGroup, types } from './test-fixtures.ts';

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

function serve(extra: Parameters<typeof mockFetch>[0] = () => undefined) {
  return mockFetch((c) => {
    const answer = extra(c);
    if (answer) return answer;
    if (c.url === '/api/perm/types') return ok(types);
    if (c.url.startsWith('/api/perm/groups?')) {
      const typeId = new URL(c.url, 'http://x').searchParams.get('typeId');
      return ok(page(typeId === '1' ? [bossGroup] : [salesGroup, bossGroup]));
    }
    return undefined;
  });
}

const card = async (name: string) => (await screen.findByText(name)).closest('[data-testid="perm-group-card"]') as HTMLElement;

describe('AuthGroupPanel', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('lists 全部分类 first, then the types by sortNum; a type filters the groups', async () => {
    const calls = serve();
    renderWithApp(<AuthGroupPanel mode="manage" />);
    const menu = await screen.findByRole('listbox', { name: '分类' });
    await within(menu).findByText('管理层');
    expect(
      within(menu)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['全部分类', '管理层', '业务部门']);
    expect(calls.find((c) => c.url.startsWith('/api/perm/groups?'))!.url).toBe('/api/perm/groups?current=1&size=10');

    fireEvent.click(within(menu).getByText('管理层'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/perm/groups?current=1&size=10&typeId=1')).toBe(true));
    await waitFor(() => expect(screen.queryByText('华东销售组')).toBeNull());
  });

  it('shows members on the card with black-listed users struck through', async () => {
    serve();
    renderWithApp(<AuthGroupPanel mode="manage" />);
    const sales = await card('华东销售组');
    for (const name of ['华东销售部', '分析师', '张三']) expect(within(sales).getByText(name).style.textDecoration).toBe('');
    expect(within(sales).getByText('李四').style.textDecoration).toBe('line-through');
    expect(within(sales).getByText('业务部门')).toBeTruthy();
    expect(within(await card('管理层 & 财务')).getByText('暂无成员')).toBeTruthy();
  });

  it('searches by name from the first page', async () => {
    const calls = serve();
    renderWithApp(<AuthGroupPanel mode="manage" />);
    await card('华东销售组');
    fireEvent.change(screen.getByPlaceholderText('权限组名称'), { target: { value: ' 销售 ' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(calls.some((c) => c.url === `/api/perm/groups?current=1&size=10&permName=${encodeURIComponent('销售')}`)).toBe(true));
  });

  it('opens 权限设置 with the id and the URL-encoded name', async () => {
    serve();
    renderWithApp(
      <>
        <AuthGroupPanel mode="manage" />
        <Where />
      </>,
    );
    fireEvent.click(within(await card('管理层 & 财务')).getByRole('button', { name: /权限设置/ }));
    expect(screen.getByTestId('where').textContent).toBe('/system/authGroupSetting?id=12&name=%E7%AE%A1%E7%90%86%E5%B1%82%20%26%20%E8%B4%A2%E5%8A%A1');
    expect(settingPath({ id: 1, permName: 'a&b=c' })).toBe('/system/authGroupSetting?id=1&name=a%26b%3Dc');
  });

  it('deletes a group after 是否删除此权限组, with the server message', async () => {
    const calls = serve((c) => (c.method === 'DELETE' ? ok(null, '删除成功!') : undefined));
    renderWithApp(<AuthGroupPanel mode="manage" />);
    fireEvent.click(within(await card('华东销售组')).getByRole('button', { name: /删除/ }));
    expect(await screen.findByText('是否删除此权限组')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/perm/groups/11')).toBe(true));
    expect(await screen.findByText('删除成功!')).toBeTruthy();
  });

  it('in select mode offers 选择 only, and hands the group over', async () => {
    serve();
    const onSelect = vi.fn();
    renderWithApp(<AuthGroupPanel mode="select" onSelect={onSelect} />);
    const sales = await card('华东销售组');
    expect(within(sales).queryByRole('button', { name: /编辑|删除|权限设置/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /新增权限组/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /新增分类/ })).toBeNull();
    fireEvent.click(within(sales).getByRole('button', { name: /选择/ }));
    expect(onSelect).toHaveBeenCalledWith(salesGroup);
  });

  it('a type still in use is not deleted: the server says why', async () => {
    const refusal = '该分类下还有 1 个权限组，请先删除或移到其他分类';
    const calls = serve((c) => (c.method === 'DELETE' ? fail(409, refusal) : undefined));
    renderWithApp(<AuthGroupPanel mode="manage" />);
    const menu = await screen.findByRole('listbox', { name: '分类' });
    const item = (await within(menu).findByText('业务部门')).closest('li')!;
    fireEvent.click(within(item).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('是否删除此分类')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/perm/types/2')).toBe(true);
  });

  it('a new type needs a name (请输入分类名)', async () => {
    const calls = serve((c) => (c.method === 'POST' ? ok({ id: 3, typeName: '外部', sortNum: 0 }, '保存成功') : undefined));
    renderWithApp(<AuthGroupPanel mode="manage" />);
    fireEvent.click(await screen.findByRole('button', { name: /新增分类/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('请输入分类名')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('分类名称'), { target: { value: ' 外部 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/perm/types', body: { id: null, typeName: '外部', sortNum: null } });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });
});
