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

  it('a dataset the user may read but not change opens read-only with its preview, no edit controls and no refused call', async () => {
    const dataset = {
      id: 12,
      cubeName: '订单明细',
      remark: null,
      workspaceId: 7,
      workspaceName: '销售',
      datasourceId: 1,
      dsName: '示例数仓',
      cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o', tableComment: '订单', type: 'TABLE' }],
      linksJoin: [],
      tableType: 'PHYSICS',
      filterJson: null,
      orderByList: [],
      publicStatus: 0,
      createUserId: 1,
      createUserName: '管理员',
      createTime: '2026-11-01 10:00:00',
      updateTime: '2026-11-01 10:00:00',
      editable: false,
    };
    const field = (id: number, columnTitle: string, viewDataType: string, dimensionType = 'WEIDU') => ({
      id,
      cubeId: 12,
      columnName: columnTitle,
      columnTitle,
      columnComment: null,
      columnAttr: 'NORMAL',
      columnFormula: null,
      tableName: 'orders',
      tableAliasName: 'o',
      dimensionType,
      viewDataType,
      oldViewDataType: null,
      hiddenStatus: 0,
      sortNum: id,
      numberDataFormat: 'AUTO',
      timeDataFormat: 'yyyy_MM_ddhh$mm$ss',
      aggregationType: 'SUM',
      virtualAggregationStatus: 0,
      isExtra: 0,
    });
    const fields = [field(1, '省份', 'STRING'), field(2, '订购时间', 'DATETIME'), field(3, '金额', 'NUMBER', 'ZHIBIAO')];
    const dim = (alias: string, fieldId: number, title: string, viewDataType: string) => ({
      alias,
      fieldId,
      title,
      viewDataType,
      kind: 'dimension',
      aggregation: null,
      granularity: null,
    });
    const preview = {
      dataList: [{ d0: '广东', d1: '2026-09-22T16:25:59', d2: 12.5 }],
      fieldDict: [dim('d0', 1, '省份', 'STRING'), dim('d1', 2, '订购时间', 'DATETIME'), dim('d2', 3, '金额', 'NUMBER')],
      total: null,
      elapsedMs: 3,
    };
    const calls = mockFetch((c) => {
      if (c.url === '/api/dataset/cubes/12') return ok(dataset);
      if (c.url === '/api/dataset/cubes/12/fields') return ok(fields);
      if (c.url === '/api/dataset/preview' && c.method === 'POST') return ok(preview);
      return undefined;
    });
    page('/newbi/dataset/edit?id=12&ws=7');
    expect(await screen.findByTestId('dataset-readonly')).toBeTruthy();
    expect(await screen.findByText('2026-09-22 16:25:59')).toBeTruthy();
    expect(screen.getByText('广东')).toBeTruthy();
    expect(screen.getAllByText('只读').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /保存/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删除/ })).toBeNull();
    expect(screen.queryByTestId('editor-stub')).toBeNull();
    // The preview is the saved dataset's, over the fields in their order: the caller's own filters apply on the server.
    const asked = calls.find((c) => c.url === '/api/dataset/preview')!;
    expect(asked.body).toEqual({ cubeDataId: 12, request: { detail: true, dimensions: [{ fieldId: 1 }, { fieldId: 2 }, { fieldId: 3 }], limit: 100 } });
    // Every call the view made was answered: nothing of the data source, nor the editor's model preview.
    expect(calls.map((c) => c.url).sort()).toEqual(['/api/dataset/cubes/12', '/api/dataset/cubes/12/fields', '/api/dataset/preview']);
    fireEvent.click(screen.getByTestId('ds-back'));
    expect(screen.getByTestId('where').textContent).toBe('/newbi/dataset?ws=7');
  });

  it('passes the list of the category in the address to the editor as the way back', async () => {
    mockFetch((c) => (c.url.startsWith('/api/datasource/usable') ? ok(usable) : undefined));
    page('/newbi/dataset/edit?sourceid=1&ws=7');
    expect(await screen.findByText('editor new on 1, back to /newbi/dataset?ws=7')).toBeTruthy();
  });
});
