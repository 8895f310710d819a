import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import type { FileStructure } from '@shutu/contracts';
import { renderWithApp } from '../../../test/render.tsx';
import { FileUploadDrawer } from './FileUploadDrawer.tsx';
import { LeftPanel, type EditorFormValues } from './LeftPanel.tsx';
import { editorKeys } from './api.ts';

const structure: FileStructure = {
  fileName: '销售明细.xlsx',
  fileType: 'xlsx',
  encoding: null,
  columns: [
    { comment: '订单号', columnName: 'order_no', columnType: 'STRING' },
    { comment: '金额', columnName: 'amount', columnType: 'NUMBER' },
  ],
  previewRows: [
    { order_no: 'A001', amount: 12.5 },
    { order_no: 'A002', amount: 30 },
  ],
  sampledRows: 2,
  fileToken: '0123456789abcdef0123456789abcdef',
};

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  form: FormData | null;
}

type Reply = { status?: number; body: unknown };
const ok = (data: unknown, msg = '操作成功!'): Reply => ({ body: { code: 200, success: true, msg, data } });
const fail = (status: number, msg: string): Reply => ({ status, body: { code: status, success: false, msg, data: null } });

/** A fetch stub that keeps the multipart bodies. */
function stubFetch(handler: (call: Sent) => Reply | undefined) {
  const calls: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call: Sent = {
        url: String(input),
        method: init?.method ?? 'GET',
        headers: (init?.headers as Record<string, string>) ?? {},
        form: init?.body instanceof FormData ? init.body : null,
      };
      calls.push(call);
      const reply = handler(call) ?? fail(404, '接口不存在');
      return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function pick(name: string) {
  const input = document.querySelector('[data-testid="file-upload-drawer"] input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['a,b\n1,2'], name)] } });
}

const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

function open(props: Partial<Parameters<typeof FileUploadDrawer>[0]> = {}) {
  const onClose = vi.fn();
  const onUploaded = vi.fn();
  const result = renderWithApp(<FileUploadDrawer open datasourceId={3} onClose={onClose} onUploaded={onUploaded} {...props} />);
  return { ...result, onClose, onUploaded };
}

describe('FileUploadDrawer', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('refuses files that are not xlsx, xls or csv', async () => {
    const calls = stubFetch(() => undefined);
    open();
    pick('报表.pdf');
    expect(await screen.findByText('请检查文件格式')).toBeTruthy();
    expect(calls).toHaveLength(0);
    expect(document.querySelector('.ant-upload-list-item')).toBeNull();
  });

  it('fills the columns, comment, default table name and preview from the structure call', async () => {
    const calls = stubFetch((c) => (c.url === '/api/filetable/structure' ? ok(structure) : undefined));
    open();
    pick('销售明细.xlsx');
    await waitFor(() => expect(value('file-col-name-0')).toBe('order_no'));
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.headers.Authorization).toBe('Bearer test-token');
    expect((calls[0]!.form!.get('file') as File).name).toBe('销售明细.xlsx');
    expect(value('file-table-comment')).toBe('销售明细');
    expect(value('file-table-name')).toMatch(/^file_table_\d{14}$/);
    expect(value('file-col-name-1')).toBe('amount');
    expect(screen.getAllByText('订单号').length).toBeGreaterThan(0);
    expect(screen.getByTestId('file-col-type-1').closest('.ant-select')?.textContent).toContain('数值');
    expect(screen.getByText('A002')).toBeTruthy();
  });

  it('checks the table name and comment in the spec order', async () => {
    const calls = stubFetch((c) => (c.url === '/api/filetable/structure' ? ok(structure) : undefined));
    open();
    pick('销售明细.csv');
    await waitFor(() => expect(value('file-col-name-0')).toBe('order_no'));
    const setInput = (id: string, v: string) => fireEvent.change(screen.getByTestId(id), { target: { value: v } });

    setInput('file-table-name', '');
    setInput('file-table-comment', '');
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    expect(await screen.findByText('请填写表名', { selector: '.ant-form-item-explain-error' })).toBeTruthy();

    setInput('file-table-name', '1abc');
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    expect(await screen.findByText('请填写表注释名', { selector: '.ant-form-item-explain-error' })).toBeTruthy();

    setInput('file-table-comment', '销售');
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    expect(await screen.findByText('请检查表名拼写', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/filetable/tables')).toHaveLength(0);
  });

  it('names the kept file, sends names, data source and the edited columns, then closes', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/filetable/structure') return ok(structure);
      if (c.url === '/api/filetable/tables') return ok({ id: 1 }, '上传成功');
      return undefined;
    });
    const { onClose, onUploaded, queryClient } = open();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    pick('销售明细.xlsx');
    await waitFor(() => expect(value('file-col-name-0')).toBe('order_no'));
    fireEvent.change(screen.getByTestId('file-table-name'), { target: { value: 'sales_2026' } });
    fireEvent.change(screen.getByTestId('file-col-name-1'), { target: { value: 'money' } });
    fireEvent.click(screen.getByTestId('file-upload-ok'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = calls.find((c) => c.url === '/api/filetable/tables')!;
    expect(sent.method).toBe('POST');
    // The file went once, with the structure call; the confirm names it.
    expect(sent.form!.get('file')).toBeNull();
    expect(sent.form!.get('fileToken')).toBe(structure.fileToken);
    expect(sent.form!.get('tableName')).toBe('sales_2026');
    expect(sent.form!.get('tableComment')).toBe('销售明细');
    expect(sent.form!.get('dsId')).toBe('3');
    expect(JSON.parse(sent.form!.get('tableColumnList') as string)).toEqual([
      { comment: '订单号', columnName: 'order_no', columnType: 'STRING' },
      { comment: '金额', columnName: 'money', columnType: 'NUMBER' },
    ]);
    expect(await screen.findByText('上传成功')).toBeTruthy();
    expect(onUploaded).toHaveBeenCalledWith('sales_2026');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: editorKeys.files(3) });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: editorKeys.tables(3) });
    // closing resets the form and clears the file
    expect(value('file-table-name')).toBe('');
    expect(screen.queryByTestId('file-col-name-0')).toBeNull();
  });

  it('sends the file again when the server no longer has it (410), once', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/filetable/structure') return ok(structure);
      if (c.url === '/api/filetable/tables') return c.form!.get('file') ? ok({ id: 1 }, '上传成功') : fail(410, '上传的文件已失效，请重新选择文件');
      return undefined;
    });
    const { onClose, onUploaded } = open();
    pick('销售明细.xlsx');
    await waitFor(() => expect(value('file-col-name-0')).toBe('order_no'));
    fireEvent.change(screen.getByTestId('file-table-name'), { target: { value: 'sales_2026' } });
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const confirms = calls.filter((c) => c.url === '/api/filetable/tables');
    expect(confirms.map((c) => [c.form!.get('fileToken'), (c.form!.get('file') as File | null)?.name ?? null])).toEqual([
      [structure.fileToken, null],
      [null, '销售明细.xlsx'],
    ]);
    expect(confirms[1]!.form!.get('tableName')).toBe('sales_2026');
    expect(onUploaded).toHaveBeenCalledWith('sales_2026');
    expect(screen.queryByText('上传的文件已失效，请重新选择文件')).toBeNull();
  });

  it('shows the server message when the upload fails, or 服务器错误 without one', async () => {
    let reply = fail(400, '表 sales 已存在');
    stubFetch((c) => (c.url === '/api/filetable/structure' ? ok(structure) : c.url === '/api/filetable/tables' ? reply : undefined));
    const { onClose } = open();
    pick('销售明细.xlsx');
    await waitFor(() => expect(value('file-col-name-0')).toBe('order_no'));
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    expect(await screen.findByText('表 sales 已存在')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();

    reply = { status: 200, body: { code: 500, success: false, msg: '', data: null } };
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    expect(await screen.findByText('服务器错误')).toBeTruthy();
    expect(value('file-col-name-0')).toBe('order_no');
  });

  it('cancel clears the file and the form', async () => {
    stubFetch((c) => (c.url === '/api/filetable/structure' ? ok(structure) : undefined));
    const { onClose } = open();
    pick('销售明细.xlsx');
    await waitFor(() => expect(value('file-col-name-0')).toBe('order_no'));
    fireEvent.click(screen.getByTestId('file-upload-cancel'));
    expect(onClose).toHaveBeenCalled();
    expect(value('file-table-comment')).toBe('');
    expect(document.querySelector('.ant-upload-list-item')).toBeNull();
  });
});

function Panel() {
  const [form] = Form.useForm<EditorFormValues>();
  return (
    <LeftPanel
      datasourceId={3}
      dsName="示例数据仓库"
      form={form}
      initialValues={{ cubeName: '', category: undefined, remark: '' }}
      saving={false}
      onSave={() => undefined}
      onDragTable={() => undefined}
    />
  );
}

describe('LeftPanel upload icon', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('opens the upload drawer from the 文件表 tab', async () => {
    stubFetch((c) => (c.method === 'GET' ? ok([]) : undefined));
    renderWithApp(<Panel />);
    fireEvent.click(screen.getByRole('tab', { name: '文件表' }));
    expect(screen.queryByTestId('file-upload-drawer')).toBeNull();
    fireEvent.click(await screen.findByTestId('ds-upload-file'));
    expect(await screen.findByTestId('file-upload-drawer')).toBeTruthy();
    expect(screen.getByText('点击或拖拽文件到此区域上传')).toBeTruthy();
  });
});
