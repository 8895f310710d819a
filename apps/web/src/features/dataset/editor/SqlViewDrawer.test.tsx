import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EditorView } from 'codemirror';
import { Form } from 'antd';
import type { SqlView } from '@shutu/contracts';
import { encodeSqlBase64 } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { SqlViewDrawer } from './SqlViewDrawer.tsx';
import { LeftPanel, type EditorFormValues } from './LeftPanel.tsx';
import { editorKeys } from './api.ts';
import { usable } from '../test-fixtures.ts';

// CodeMirror measures text through Range rectangles, which jsdom does not implement.
const emptyRects = () => Object.assign([] as DOMRect[], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= emptyRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const tables = [
  { schema: 'public', name: 'orders', comment: '订单', kind: 'TABLE' },
  { schema: 'public', name: 'users', comment: '用户', kind: 'TABLE' },
];
const orderColumns = [
  { name: 'order_no', comment: '订单号', dbType: 'varchar', viewDataType: 'STRING' },
  { name: 'amount', comment: '金额', dbType: 'numeric(18,2)', viewDataType: 'NUMBER' },
];
const previewResult = {
  columns: [
    { name: 'order_no', databaseType: 'varchar', viewDataType: 'STRING' },
    { name: 'amount', databaseType: 'numeric', viewDataType: 'NUMBER' },
  ],
  rows: [
    { order_no: 'A001', amount: 12.5 },
    { order_no: 'A002', amount: 30 },
  ],
  truncated: false,
  elapsedMs: 8,
};
const existing: SqlView = {
  id: 7,
  datasourceId: 4,
  sqlName: '大额订单',
  viewName: 'V_BIG_ORDERS',
  sqlStatement: 'select * from orders where amount > 100',
  createUserId: 1,
  createTime: '2026-01-02T03:04:05.000Z',
  updateTime: '2026-01-02T03:04:05.000Z',
};

function serve(extra: (c: Call) => ReturnType<typeof ok> | undefined = () => undefined) {
  return mockFetch((c) => {
    const answer = extra(c);
    if (answer) return answer;
    if (c.url === '/api/datasource/usable') return ok(usable);
    if (c.url === '/api/datasource/4/tables') return ok(tables);
    if (c.url.startsWith('/api/datasource/4/columns?tableName=orders')) return ok(orderColumns);
    if (c.url === '/api/sqlview/default-name') return ok({ viewName: 'V_SQL_202601021104' });
    return undefined;
  });
}

function open(view: SqlView | null = null) {
  const onClose = vi.fn();
  const result = renderWithApp(<SqlViewDrawer open datasourceId={4} view={view} onClose={onClose} />);
  return { ...result, onClose };
}

const editorView = () => EditorView.findFromDOM(document.querySelector('[data-testid="sql-view-editor"] .cm-editor') as HTMLElement)!;
const sqlText = () => editorView().state.doc.toString();
function typeSql(text: string) {
  const view = editorView();
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const fieldError = (text: string) => screen.findByText(text, { selector: '.ant-form-item-explain-error' });

describe('SqlViewDrawer', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('names a new view from the server and checks the form in the spec order', async () => {
    const calls = serve();
    open();
    await waitFor(() => expect(input('sql-view-view-name').value).toBe('V_SQL_202601021104'));
    fireEvent.click(screen.getByTestId('sql-view-save'));
    expect(await fieldError('请输入sql名称')).toBeTruthy();

    fireEvent.change(input('sql-view-sql-name'), { target: { value: '订单视图' } });
    fireEvent.change(input('sql-view-view-name'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('sql-view-save'));
    expect(await fieldError('请输入视图名称')).toBeTruthy();

    fireEvent.change(input('sql-view-view-name'), { target: { value: 'V_ORDERS' } });
    fireEvent.click(screen.getByTestId('sql-view-save'));
    expect(await fieldError('请编辑sql语句')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('asks for a statement before previewing', async () => {
    const calls = serve();
    open();
    fireEvent.click(await screen.findByTestId('sql-view-preview'));
    expect(await fieldError('请编辑sql语句')).toBeTruthy();
    // the default name arriving later leaves the message in place
    await waitFor(() => expect(input('sql-view-view-name').value).toBe('V_SQL_202601021104'));
    expect(screen.getByText('请编辑sql语句', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/sqlview/preview')).toBe(false);
  });

  it('inserts table and column names from the browser and previews the rows as Base64 SQL', async () => {
    const calls = serve((c) => (c.url === '/api/sqlview/preview' ? ok(previewResult) : undefined));
    open();
    typeSql('select * from ');
    act(() => editorView().dispatch({ selection: { anchor: 'select * from '.length } }));
    fireEvent.click(await screen.findByTestId('sql-browser-table-orders'));
    expect(sqlText()).toBe('select * from orders');

    fireEvent.click(screen.getByTestId('sql-browser-expand-orders'));
    fireEvent.click(await screen.findByTestId('sql-browser-column-orders.amount'));
    expect(sqlText()).toBe('select * from ordersamount');
    typeSql('select order_no, amount from orders');

    fireEvent.click(screen.getByTestId('sql-view-preview'));
    const result = await screen.findByTestId('sql-view-result');
    expect(within(result).getByText('A002')).toBeTruthy();
    expect(within(result).getByText('共 2 行，耗时 8 ms')).toBeTruthy();
    const sent = calls.find((c) => c.url === '/api/sqlview/preview')!;
    expect(sent.body).toEqual({ datasourceId: 4, sqlStatement: encodeSqlBase64('select order_no, amount from orders') });
  });

  it('shows the response text in the 错误信息 tab when a preview fails', async () => {
    serve((c) => (c.url === '/api/sqlview/preview' ? fail(400, 'SQL 执行失败：relation "nope" does not exist') : undefined));
    open();
    await screen.findByTestId('sql-browser-table-orders');
    typeSql('select * from nope');
    fireEvent.click(screen.getByTestId('sql-view-preview'));
    const error = await screen.findByTestId('sql-view-error');
    expect(error.textContent).toBe('SQL 执行失败：relation "nope" does not exist');
    const active = document.querySelector('.sqlv-results .ant-tabs-tab-active');
    expect(active?.textContent).toBe('错误信息');
  });

  it('edits an existing view: fills the form, saves with its id, toasts and closes', async () => {
    const calls = serve((c) => (c.url === '/api/sqlview/views' && c.method === 'POST' ? ok({ ...existing, sqlName: '超大额订单' }, '保存成功') : undefined));
    const { onClose, queryClient } = open(existing);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect(screen.getByText('编辑SQL视图：V_BIG_ORDERS')).toBeTruthy();
    expect(input('sql-view-sql-name').value).toBe('大额订单');
    expect(input('sql-view-view-name').value).toBe('V_BIG_ORDERS');
    expect(sqlText()).toBe(existing.sqlStatement);
    expect(calls.some((c) => c.url === '/api/sqlview/default-name')).toBe(false);

    fireEvent.change(input('sql-view-sql-name'), { target: { value: '超大额订单' } });
    typeSql('select * from orders where amount > 1000');
    fireEvent.click(screen.getByTestId('sql-view-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.url === '/api/sqlview/views' && c.method === 'POST')!.body).toEqual({
      id: 7,
      datasourceId: 4,
      sqlName: '超大额订单',
      viewName: 'V_BIG_ORDERS',
      sqlStatement: 'select * from orders where amount > 1000',
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: editorKeys.views(4) });
  });
});

function Panel() {
  const [form] = Form.useForm<EditorFormValues>();
  return (
    <LeftPanel
      datasourceId={4}
      dsName="销售库"
      form={form}
      initialValues={{ cubeName: '', category: undefined, remark: '' }}
      saving={false}
      onSave={() => undefined}
      onDragTable={() => undefined}
    />
  );
}

describe('LeftPanel SQL view icons', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('opens the drawer empty from the add icon and filled from a view edit icon', async () => {
    serve((c) => {
      if (c.url === '/api/sqlview/views?datasourceId=4') return ok([existing]);
      if (c.url === '/api/filetable/tables?dsId=4') return ok([]);
      if (c.url === '/api/dataset/categories') return ok([]);
      return undefined;
    });
    renderWithApp(<Panel />);
    fireEvent.click(screen.getByRole('tab', { name: 'SQL视图' }));
    fireEvent.click(await screen.findByTestId('ds-edit-view-V_BIG_ORDERS'));
    await waitFor(() => expect(input('sql-view-sql-name').value).toBe('大额订单'));
    expect(sqlText()).toBe(existing.sqlStatement);
    fireEvent.click(document.querySelector('.sqlv-drawer .ant-drawer-close') as HTMLElement);
    await waitFor(() => expect(screen.queryByTestId('sql-view-drawer')).toBeNull());

    fireEvent.click(screen.getByTestId('ds-add-view'));
    await waitFor(() => expect(input('sql-view-view-name').value).toBe('V_SQL_202601021104'));
    expect(input('sql-view-sql-name').value).toBe('');
    expect(screen.getByTestId('ds-table-V_BIG_ORDERS')).toBeTruthy();
  });
});
