import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { GlobalParam, GlobalParamType } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../../test/render.tsx';
import { page } from '../test-fixtures.ts';
import { GlobalParamManager } from './GlobalParamManager.tsx';

// antd renders slowly on a loaded machine; give async queries time.
configure({ asyncUtilTimeout: 5000 });

const stamp = { createTime: '2026-01-02T03:04:05.000Z', updateTime: '2026-01-02T03:04:05.000Z' };
const types: GlobalParamType[] = [
  { id: 1, typeName: '组织', sortNum: 1 },
  { id: 2, typeName: '时间', sortNum: 2 },
];
const params: GlobalParam[] = [
  { ...stamp, id: 5, typeId: 1, typeName: '组织', paramName: '地区', paramKey: 'region', paramColumnType: 'STRING' },
  { ...stamp, id: 6, typeId: 2, typeName: '时间', paramName: '统计日期', paramKey: 'stat_day', paramColumnType: 'DATETIME' },
  { ...stamp, id: 7, typeId: 1, typeName: '组织', paramName: '门店数', paramKey: 'shop_count', paramColumnType: 'NUMBER' },
];

/** Answers the reads; `write` answers POST and DELETE (undefined: 404). */
function serve(write: (c: Call) => ReturnType<typeof ok> | ReturnType<typeof fail> | undefined = () => undefined) {
  return mockFetch((c) => {
    if (c.method !== 'GET') return write(c);
    if (c.url === '/api/global-param/types') return ok(types);
    if (c.url.startsWith('/api/global-param/params')) {
      const q = new URL(c.url, 'http://x').searchParams;
      const typeId = Number(q.get('typeId') ?? 0);
      const keyword = q.get('keyword') ?? '';
      return ok(page(params.filter((p) => (!typeId || p.typeId === typeId) && (p.paramName.includes(keyword) || p.paramKey.includes(keyword)))));
    }
    return undefined;
  });
}

// Role queries walk the accessibility tree and are slow in jsdom; these stay on plain selectors.
const rows = () => [...document.querySelectorAll<HTMLElement>('.ant-table-tbody tr.ant-table-row')];
const visible = (el: Element) => !el.closest('[style*="display: none"]') && !el.closest('.ant-zoom-leave');
const dialogs = () => [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].filter(visible);
/** The button whose text (or aria-label) matches, inside `root`. */
function button(root: ParentNode, name: RegExp | string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>('button')].filter(visible).find((b) => {
    const text = b.getAttribute('aria-label') ?? b.textContent ?? '';
    return typeof name === 'string' ? text.trim() === name : name.test(text);
  });
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}
const queryButton = (root: ParentNode, name: RegExp | string) => {
  try {
    return button(root, name);
  } catch {
    return null;
  }
};
const row = (text: string) => rows().find((r) => r.textContent?.includes(text)) as HTMLElement;
const typeEntry = (name: string) => screen.getAllByTestId('param-type').find((n) => n.textContent?.includes(name)) as HTMLElement;
const lastDialog = () => {
  const all = dialogs();
  return all[all.length - 1]!;
};

async function choose(dialog: HTMLElement, label: string, option: string) {
  const select = within(dialog).getByLabelText(label).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const found = await waitFor(() => {
    const items = [...document.querySelectorAll(`.ant-select-dropdown .ant-select-item-option[title="${option}"]`)];
    if (items.length === 0) throw new Error(`no option ${option}`);
    return items[items.length - 1]!;
  });
  fireEvent.click(found);
}

describe('global parameter manager', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('lists categories (全部 first) and parameters with their type labels, by category and keyword', async () => {
    const calls = serve();
    renderWithApp(<GlobalParamManager open onClose={() => undefined} />);
    expect(await screen.findByText('全局参数管理')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('param-type').map((n) => n.textContent)).toEqual(['全部', '组织', '时间']));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(row('地区')).getByText('region')).toBeTruthy();
    expect(within(row('地区')).getByText('字符串')).toBeTruthy();
    expect(within(row('统计日期')).getByText('日期')).toBeTruthy();
    expect(within(row('门店数')).getByText('数值')).toBeTruthy();
    expect(within(row('门店数')).getByText('组织')).toBeTruthy();

    fireEvent.click(typeEntry('时间'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(calls.some((c) => c.url === '/api/global-param/params?current=1&size=10&typeId=2')).toBe(true);

    fireEvent.click(typeEntry('全部'));
    fireEvent.change(screen.getByPlaceholderText('搜索参数名称或key'), { target: { value: ' shop ' } });
    fireEvent.click(button(document, /搜\s*索/));
    await waitFor(() => expect(rows().map((r) => r.textContent)).toEqual([expect.stringContaining('门店数')]));
    expect(calls.some((c) => c.url === '/api/global-param/params?current=1&size=10&keyword=shop')).toBe(true);
  });

  it('validates the parameter form and posts a new parameter in the chosen category', async () => {
    const calls = serve((c) =>
      c.method === 'POST' && c.url === '/api/global-param/params'
        ? ok({ ...stamp, id: 8, typeId: 2, typeName: '时间', paramName: '月份', paramKey: 'month1', paramColumnType: 'DATETIME' }, '已保存')
        : undefined,
    );
    renderWithApp(<GlobalParamManager open onClose={() => undefined} />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('param-add'));
    await waitFor(() => expect(dialogs()).toHaveLength(2));
    const dialog = lastDialog();
    fireEvent.click(button(dialog, /保\s*存/));
    expect(await within(dialog).findByText('请输入参数名称', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(within(dialog).getByText('请输入参数key', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(within(dialog).getByText('请选择参数分类', { selector: '.ant-form-item-explain-error' })).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('参数名称'), { target: { value: ' 月份 ' } });
    fireEvent.change(within(dialog).getByLabelText('参数key'), { target: { value: '1month' } });
    fireEvent.click(button(dialog, /保\s*存/));
    expect(await within(dialog).findByText('参数key须以字母开头，只含字母、数字或下划线')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('参数key'), { target: { value: 'month1' } });
    await choose(dialog, '参数类型', '日期');
    await choose(dialog, '参数分类', '时间');
    fireEvent.click(button(dialog, /保\s*存/));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      expect.objectContaining({
        url: '/api/global-param/params',
        body: { id: null, typeId: 2, paramName: '月份', paramKey: 'month1', paramColumnType: 'DATETIME' },
      }),
    ]);
    expect(await screen.findByText('已保存')).toBeTruthy();
  });

  it('edits a parameter with its id and shows the server refusal (参数key已存在)', async () => {
    const calls = serve((c) => (c.method === 'POST' ? fail(409, '参数key已存在') : undefined));
    renderWithApp(<GlobalParamManager open onClose={() => undefined} />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(button(row('地区'), /编\s*辑/));
    await waitFor(() => expect(dialogs()).toHaveLength(2));
    const dialog = lastDialog();
    expect(within(dialog).getByText('编辑参数')).toBeTruthy();
    expect((within(dialog).getByLabelText('参数key') as HTMLInputElement).value).toBe('region');
    fireEvent.change(within(dialog).getByLabelText('参数key'), { target: { value: 'shop_count' } });
    fireEvent.click(button(dialog, /保\s*存/));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ id: 5, typeId: 1, paramName: '地区', paramKey: 'shop_count', paramColumnType: 'STRING' });
    // Toasted and marked under the key; the dialog stays open.
    expect(await within(dialog).findByText('参数key已存在', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('参数key已存在').length).toBeGreaterThanOrEqual(2));
  });

  it('asks 确定删除? before deleting a parameter and shows the in-use refusal', async () => {
    const refusal = '全局参数【region】被数据集【销售明细】的全局过滤使用，不能删除';
    const calls = serve((c) => (c.method === 'DELETE' ? fail(409, refusal) : undefined));
    renderWithApp(<GlobalParamManager open onClose={() => undefined} />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(button(row('地区'), /删\s*除/));
    expect(await screen.findByText('确定删除?')).toBeTruthy();
    fireEvent.click(button(document, /确\s*定/));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/global-param/params/5');
    expect(await screen.findByText(refusal)).toBeTruthy();
  });

  it('adds, renames and deletes categories', async () => {
    const calls = serve((c) => {
      if (c.method === 'POST') return ok({ id: 3, typeName: '渠道', sortNum: 0 }, '已保存');
      if (c.method === 'DELETE') return fail(409, '该分类下还有 2 个全局参数，请先删除或移到其他分类');
      return undefined;
    });
    renderWithApp(<GlobalParamManager open onClose={() => undefined} />);
    await waitFor(() => expect(screen.getAllByTestId('param-type')).toHaveLength(3));

    fireEvent.click(button(document, /新增分类/));
    await waitFor(() => expect(dialogs()).toHaveLength(2));
    let dialog = lastDialog();
    fireEvent.click(button(dialog, /保\s*存/));
    expect(await within(dialog).findByText('请输入分类名', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('分类名称'), { target: { value: ' 渠道 ' } });
    fireEvent.click(button(dialog, /保\s*存/));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/global-param/types', body: { id: null, typeName: '渠道', sortNum: null } });
    await waitFor(() => expect(dialogs()).toHaveLength(1));

    fireEvent.click(button(typeEntry('时间'), '重命名分类'));
    await waitFor(() => expect(dialogs()).toHaveLength(2));
    dialog = lastDialog();
    expect((within(dialog).getByLabelText('分类名称') as HTMLInputElement).value).toBe('时间');
    fireEvent.change(within(dialog).getByLabelText('分类名称'), { target: { value: '日期' } });
    fireEvent.click(button(dialog, /保\s*存/));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1]!.body).toEqual({ id: 2, typeName: '日期', sortNum: 2 });

    fireEvent.click(button(typeEntry('组织'), '删除'));
    expect(await screen.findByText('确定删除?')).toBeTruthy();
    fireEvent.click(button(document, /确\s*定/));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/global-param/types/1');
    expect(await screen.findByText('该分类下还有 2 个全局参数，请先删除或移到其他分类')).toBeTruthy();
  });

  it('is read-only for users who are not administrators', async () => {
    serve();
    renderWithApp(<GlobalParamManager open onClose={() => undefined} />, { info: user({ isAdministrator: false }) });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByText('仅管理员可以维护全局参数')).toBeTruthy();
    expect(screen.queryByTestId('param-add')).toBeNull();
    expect(queryButton(document, /新增分类/)).toBeNull();
    expect(queryButton(row('地区'), /删\s*除/)).toBeNull();
  });
});
