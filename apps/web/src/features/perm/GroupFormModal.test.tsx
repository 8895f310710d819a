import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DepartmentNode, RoleNode, User } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { GroupFormModal, groupBody, userLabel } from './GroupFormModal.tsx';
import { page, salesGroup, types } from './test-fixtures.ts';

const depts = [
  { id: 1, parentId: 0, deptName: '数图科技', sort: 0, children: [{ id: 3, parentId: 1, deptName: '华东销售部', sort: 0, children: [] }] },
] as unknown as DepartmentNode[];
const roles = [{ id: 4, parentId: 0, roleName: '分析师', sort: 0, permissions: [], children: [] }] as unknown as RoleNode[];
const person = (id: number, account: string, name: string, realName: string | null = null) =>
  ({
    id,
    account,
    name,
    realName,
    avatar: null,
    phone: null,
    email: null,
    userExtJson: null,
    deptId: null,
    deptName: null,
    roleIds: [],
    isAdministrator: false,
    status: 1,
  }) as unknown as User;
const users = [person(5, 'zhangsan', '张三'), person(6, 'lisi', '小李', '李四')];

function serve() {
  return mockFetch((c) => {
    if (c.url === '/api/org/departments') return ok(depts);
    if (c.url === '/api/org/roles') return ok(roles);
    if (c.url.startsWith('/api/org/users?')) return ok(page(users));
    if (c.method === 'POST' && c.url === '/api/perm/groups') return ok({ ...salesGroup, id: 20 }, '保存成功');
    return undefined;
  });
}

/** Opens the select of the form item labelled `label` and clicks the option `option`. */
async function choose(label: string, option: string) {
  const select = screen.getByLabelText(label).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const items = await screen.findAllByTitle(option);
  fireEvent.click(items[items.length - 1]!);
}

describe('GroupFormModal', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('labels users by real name (or name) and account', () => {
    expect(userLabel(users[0]!)).toBe('张三（zhangsan）');
    expect(userLabel(users[1]!)).toBe('李四（lisi）');
  });

  it('keeps the saved names of members it cannot name any more', () => {
    const body = groupBody(
      { permName: ' 组 ', typeId: 2, dpIds: [3], userIds: [5, 99] },
      { depts: new Map(), roles: new Map(), users: new Map([[5, '张三丰']]) },
      salesGroup,
    );
    expect(body).toEqual({
      id: 11,
      permName: '组',
      typeId: 2,
      permJson: {
        dpList: [{ id: 3, name: '华东销售部' }],
        roleList: [],
        userList: [
          { id: 5, name: '张三丰' },
          { id: 99, name: '' },
        ],
        blackUserList: [],
      },
    });
  });

  it('asks for name and type with 请填写完整 and says sub-departments count', async () => {
    const calls = serve();
    renderWithApp(<GroupFormModal target={{}} types={types} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('所选部门的下级部门成员同样属于本权限组，无需再勾选下级部门')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(within(dialog).getAllByText('请填写完整')).toHaveLength(2));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('saves a new group of the chosen type with its department and users named', async () => {
    const onClose = vi.fn();
    const calls = serve();
    renderWithApp(<GroupFormModal target={{ typeId: 2 }} types={types} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('权限组名称'), { target: { value: '华东销售组' } });
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/org/users?'))).toBe(true));
    await choose('部门', '华东销售部');
    await choose('用户', '张三（zhangsan）');
    await choose('黑名单', '李四（lisi）');
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      permName: '华东销售组',
      typeId: 2,
      permJson: {
        dpList: [{ id: 3, name: '华东销售部' }],
        roleList: [],
        userList: [{ id: 5, name: '张三' }],
        blackUserList: [{ id: 6, name: '李四' }],
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('edits a saved group with its members filled in', async () => {
    const calls = serve();
    renderWithApp(<GroupFormModal target={{ record: salesGroup }} types={types} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('编辑权限组')).toBeTruthy();
    expect((within(dialog).getByLabelText('权限组名称') as HTMLInputElement).value).toBe('华东销售组');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/org/users?'))).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ id: 11, permName: '华东销售组', typeId: 2, permJson: salesGroup.permJson });
  });

  it('names what is missing, and says how to get a category when there is none', async () => {
    serve();
    renderWithApp(<GroupFormModal target={{}} types={[]} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('还需填写：权限组名称、所属分类（还没有分类：点「新建分类」添加一个）')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('权限组名称'), { target: { value: '组' } });
    expect(await within(dialog).findByText('还需填写：所属分类（还没有分类：点「新建分类」添加一个）')).toBeTruthy();
  });

  it('preselects the seeded 默认分类 for a new group, unless the list was showing another category', async () => {
    const withDefault = [...types, { id: 7, typeName: '默认分类', sortNum: 0 }];
    const calls = serve();
    const { unmount } = renderWithApp(<GroupFormModal target={{}} types={withDefault} onClose={() => undefined} />);
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTitle('默认分类')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('权限组名称'), { target: { value: '第一个组' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ permName: '第一个组', typeId: 7 });
    unmount();

    renderWithApp(<GroupFormModal target={{ typeId: 1 }} types={withDefault} onClose={() => undefined} />);
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTitle('管理层')).toBeTruthy();
    expect(within(dialog).queryByTitle('默认分类')).toBeNull();
  });

  it('creates a category in place with the category API and selects it', async () => {
    const calls = mockFetch((c) => {
      if (c.url === '/api/org/departments') return ok(depts);
      if (c.url === '/api/org/roles') return ok(roles);
      if (c.url.startsWith('/api/org/users?')) return ok(page(users));
      if (c.method === 'POST' && c.url === '/api/perm/types') return ok({ id: 30, typeName: '销售体系', sortNum: 0 }, '保存成功');
      if (c.method === 'POST' && c.url === '/api/perm/groups') return ok({ ...salesGroup, id: 20 }, '保存成功');
      return undefined;
    });
    renderWithApp(<GroupFormModal target={{}} types={[]} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /新建分类/ }));
    const name = within(dialog).getByLabelText('新分类名称');
    expect((within(dialog).getByRole('button', { name: '添加' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: ' 销售体系 ' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(within(dialog).getByTitle('销售体系')).toBeTruthy());
    expect(calls.find((c) => c.url === '/api/perm/types')!.body).toEqual({ typeName: '销售体系' });
    // Enter added the category; it did not submit the group.
    expect(calls.some((c) => c.url === '/api/perm/groups')).toBe(false);
    expect(within(dialog).queryByLabelText('新分类名称')).toBeNull();

    fireEvent.change(within(dialog).getByLabelText('权限组名称'), { target: { value: '华东销售组' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/perm/groups')).toBe(true));
    expect(calls.find((c) => c.url === '/api/perm/groups')!.body).toMatchObject({ permName: '华东销售组', typeId: 30 });
  });
});
