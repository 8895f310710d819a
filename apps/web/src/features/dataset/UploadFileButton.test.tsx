import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import type { FileStructure, UsableDataSource } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DatasetListPage } from './DatasetListPage.tsx';
import { categories, page } from './test-fixtures.ts';
import { defaultUploadSource, uploadedTablePath } from './UploadFileButton.tsx';

const warehouse: UsableDataSource = { id: 1, dsDb: '示例数据仓库', type: 'duckdb', dsTypeSyl: 'DuckDB', remark: null };
const sales: UsableDataSource = { id: 7, dsDb: '销售库', type: 'postgres', dsTypeSyl: 'PostgreSQL', remark: null };

const structure: FileStructure = {
  fileName: '门店.csv',
  fileType: 'csv',
  encoding: 'UTF-8',
  columns: [
    { comment: '门店', columnName: 'col_1', columnType: 'STRING' },
    { comment: '销售额', columnName: 'col_2', columnType: 'NUMBER' },
  ],
  previewRows: [{ col_1: '上海店', col_2: 12 }],
  sampledRows: 1,
  fileToken: 'fedcba9876543210fedcba9876543210',
};

function serve(sources: UsableDataSource[]) {
  return mockFetch((c: Call) => {
    if (c.url === '/api/dataset/categories') return ok(categories);
    if (c.url.startsWith('/api/dataset/cubes?')) return ok(page([]));
    if (c.url === '/api/datasource/usable') return ok(sources);
    if (c.url === '/api/filetable/structure') return ok(structure);
    if (c.url === '/api/filetable/tables') return ok({ id: 1 }, '上传成功');
    return undefined;
  });
}

function Editor() {
  const { search } = useLocation();
  return <div data-testid="editor-at">{search}</div>;
}

function App() {
  return (
    <Routes>
      <Route path="/newbi/dataset" element={<DatasetListPage />} />
      <Route path="/newbi/dataset/edit" element={<Editor />} />
    </Routes>
  );
}

function pick(name: string) {
  const input = document.querySelector('[data-testid="file-upload-drawer"] input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['门店,销售额\n上海店,12'], name)] } });
}

const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

describe('上传文件 on the dataset list', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('is not offered without a usable data source', async () => {
    const calls = serve([]);
    renderWithApp(<App />, { path: '/newbi/dataset' });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/datasource/usable')).toBe(true));
    await screen.findByText('新建数据集');
    expect(screen.queryByTestId('dataset-upload-file')).toBeNull();
  });

  it('opens the upload drawer on the only source and, once uploaded, the editor with the new table', async () => {
    const calls = serve([sales]);
    renderWithApp(<App />, { path: '/newbi/dataset' });
    fireEvent.click(await screen.findByTestId('dataset-upload-file', {}, { timeout: 5000 }));
    expect(await screen.findByTestId('file-upload-drawer')).toBeTruthy();
    pick('门店.csv');
    await waitFor(() => expect(value('file-col-name-0')).toBe('col_1'));
    fireEvent.change(screen.getByTestId('file-table-name'), { target: { value: 'stores' } });
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    const at = await screen.findByTestId('editor-at', {}, { timeout: 5000 });
    expect(at.textContent).toBe('?sourceid=7&tableName=stores');
    expect(calls.find((c) => c.url === '/api/filetable/tables')!.method).toBe('POST');
  });

  it('with several sources asks which one, the built-in warehouse preselected', async () => {
    const calls = stubUploads([sales, warehouse]);
    renderWithApp(<App />, { path: '/newbi/dataset' });
    fireEvent.click(await screen.findByTestId('dataset-upload-file', {}, { timeout: 5000 }));
    expect(await screen.findByText('上传到数据源')).toBeTruthy();
    expect(document.querySelector('.ant-modal .ant-select-selection-item, .ant-modal .ant-select-content')?.textContent).toContain('示例数据仓库');
    fireEvent.click(screen.getByRole('button', { name: /下\s*一\s*步/ }));
    expect(await screen.findByTestId('file-upload-drawer')).toBeTruthy();
    pick('门店.csv');
    await waitFor(() => expect(value('file-col-name-0')).toBe('col_1'));
    fireEvent.change(screen.getByTestId('file-table-name'), { target: { value: 'stores' } });
    fireEvent.click(screen.getByTestId('file-upload-ok'));
    const at = await screen.findByTestId('editor-at', {}, { timeout: 5000 });
    expect(at.textContent).toBe('?sourceid=1&tableName=stores');
    expect(calls.uploads.at(-1)!.get('dsId')).toBe('1');
  });

  it('builds the editor address and picks the default source', () => {
    expect(uploadedTablePath(3, 'file_table_1', 0)).toBe('/newbi/dataset/edit?sourceid=3&tableName=file_table_1');
    expect(uploadedTablePath(3, 'a', 5)).toBe('/newbi/dataset/edit?sourceid=3&ws=5&tableName=a');
    expect(defaultUploadSource([sales, warehouse])).toBe(1);
    expect(defaultUploadSource([sales])).toBe(7);
    // 系统设置 → 上传文件表 names the target: preselected when the caller may use it, else the warehouse.
    expect(defaultUploadSource([sales, warehouse], 7)).toBe(7);
    expect(defaultUploadSource([warehouse], 7)).toBe(1);
    expect(defaultUploadSource([])).toBeUndefined();
  });
});

/** Like serve, but keeps the multipart bodies sent to the upload. */
function stubUploads(sources: UsableDataSource[]) {
  const uploads: FormData[] = [];
  const inner = serve(sources);
  const mocked = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === '/api/filetable/tables' && init?.body instanceof FormData) uploads.push(init.body);
    return mocked(input, init);
  });
  return { calls: inner, uploads };
}
