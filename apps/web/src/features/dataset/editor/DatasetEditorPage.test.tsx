import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { fail, mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import DatasetEditorPage from './DatasetEditorPage.tsx';

// The editor itself (canvas, drawers) is not under test here: a stand-in shows what it was given.
vi.mock('./DatasetEditor.tsx', () => ({
  DatasetEditor: (p: { id: number | null; datasourceId: number; backPath: string }) => (
    <div data-testid="editor-stub">{`editor ${p.id ?? 'new'} on ${p.datasourceId}, back to ${p.backPath}`}</div>
  ),
}));

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

const page = (path: string) =>
  renderWithApp(
    <>
      <DatasetEditorPage notFound={<div>页面不存在</div>} />
      <Where />
    </>,
    { path },
  );

const usable = [
  { id: 1, dsDb: '示例数仓', type: 'SQLITE', dsTypeSyl: 'sqlite', remark: null },
  { id: 2, dsDb: '销售库', type: 'MYSQL', dsTypeSyl: 'mysql', remark: null },
];

describe('DatasetEditorPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('without a data source lets the user pick one of the usable sources, which opens the editor on it', async () => {
    mockFetch((c) => (c.url.startsWith('/api/datasource/usable') ? ok(usable) : undefined));
    page('/newbi/dataset/edit?ws=5');
    expect(screen.getByText('请选择数据源', { selector: '.ant-result-title' })).toBeTruthy();
    await screen.findByTestId('ds-source-select');
    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('销售库'));
    expect(await screen.findByText('editor new on 2, back to /newbi/dataset?ws=5')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/newbi/dataset/edit?sourceid=2&ws=5');
  });

  it('返回 on the picker goes to the dataset list', async () => {
    mockFetch((c) => (c.url.startsWith('/api/datasource/usable') ? ok([]) : undefined));
    page('/newbi/dataset/edit');
    expect(await screen.findByText('暂无可用的数据源，请联系管理员授权')).toBeTruthy();
    fireEvent.click(screen.getByTestId('ds-back'));
    expect(screen.getByTestId('where').textContent).toBe('/newbi/dataset');
  });

  it('an id of no dataset (404) or of one not visible (403) shows the not-found page', async () => {
    mockFetch((c) => (/\/api\/dataset\/cubes\/9/.test(c.url) ? fail(404, '数据集不存在') : undefined));
    page('/newbi/dataset/edit?id=999999');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
    cleanup();
    mockFetch((c) => (/\/api\/dataset\/cubes\/8/.test(c.url) ? fail(403, '没有数据集【x】的使用权限，请联系管理员授权') : undefined));
    page('/newbi/dataset/edit?id=8');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
  });

  it('an id that is not a number is not found, without a request', async () => {
    const calls = mockFetch(() => undefined);
    page('/newbi/dataset/edit?id=abc');
    expect(screen.getByText('页面不存在')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/dataset'))).toEqual([]));
  });

  it('passes the list of the category in the address to the editor as the way back', async () => {
    mockFetch((c) => (c.url.startsWith('/api/datasource/usable') ? ok(usable) : undefined));
    page('/newbi/dataset/edit?sourceid=1&ws=7');
    expect(await screen.findByText('editor new on 1, back to /newbi/dataset?ws=7')).toBeTruthy();
  });
});
