import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { decodeBase64Json, type DataApi } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import DataApiEditorPage from './DataApiEditorPage.tsx';
import Type3EditorPage, { firstMissing } from './Type3EditorPage.tsx';

const url = (c: Call) => new URL(c.url, 'http://x');
const byTestId = <T extends Element = HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`)!;
const type = (id: string, value: string) => fireEvent.change(byTestId(id), { target: { value } });

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

const api = (extra: Partial<DataApi> = {}): DataApi => ({
  id: 5,
  apiKey: 'weather',
  apiName: '天气',
  categoryId: 1,
  apiFormal: 1,
  remark: '',
  datasourceId: null,
  queryTable: null,
  querySql: null,
  apiType: 2,
  chartType: 0,
  apiStatus: 1,
  apiUrl: 'http://127.0.0.1:9/weather',
  apiMethod: 'get',
  apiParamType: 0,
  apiJsFunction: 'function (data) {\n  return data;\n}',
  apiHeaders: {},
  note: JSON.stringify({ showFields: [], params: [{ name: '城市', key: 'city', datatype: 'string', def: '杭州' }] }),
  queryParam: [],
  failCount: 0,
  createUserId: 1,
  createTime: '2026-01-01T00:00:00Z',
  updateTime: '2026-01-01T00:00:00Z',
  ...extra,
});

const categories = ok([{ id: 1, categoryName: '天气', sort: 0, apiCount: 0 }]);

describe('data-API editor (spec 2 §4, §5)', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('refuses to preview an unsaved API: 必须保存才能预览', async () => {
    const calls = mockFetch((c) => (url(c).pathname === '/api/dataapi/categories' ? categories : ok([])));
    renderWithApp(<DataApiEditorPage withChart />, { path: '/apiedit1' });
    fireEvent.click(await screen.findByTestId('dataapi-preview'));
    await screen.findByText('必须保存才能预览');
    expect(calls.some((c) => url(c).pathname === '/api/dataapi/preview')).toBe(false);
  });

  it('saves a new external API, moves to ?id=, then previews it with the typed parameters as apiParam', async () => {
    const calls = mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/dataapi/categories') return categories;
      if (path === '/api/dataapi/apis' && c.method === 'POST') return ok(api(), '保存成功');
      if (path === '/api/dataapi/apis/5') return ok(api());
      if (path === '/api/dataapi/preview') return ok({ data: [{ city: '杭州', temp: 21 }], rows: 1, elapsedMs: 3, truncated: false });
      return ok([]);
    });
    renderWithApp(
      <>
        <DataApiEditorPage withChart />
        <Where />
      </>,
      { path: '/apiedit1?type=2&ws=1' },
    );
    await screen.findByTestId('dataapi-url');
    type('dataapi-key', 'weather');
    type('dataapi-name', '天气');
    type('dataapi-url', 'http://127.0.0.1:9/weather');
    fireEvent.click(screen.getByTestId('dataapi-add-param'));
    fireEvent.change(byTestId('param-key-0'), { target: { value: 'city' } });
    fireEvent.change(screen.getAllByPlaceholderText('默认值').at(-1)!, { target: { value: '杭州' } });
    fireEvent.click(screen.getByTestId('dataapi-save'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/apiedit1?id=5'), { timeout: 10_000 });
    // dataapiSubmit goes in the spec's form: Base64 of the JSON.
    const sent = calls.find((c) => url(c).pathname === '/api/dataapi/apis' && c.method === 'POST')!.body as { payload: string };
    const saved = decodeBase64Json(sent.payload) as Record<string, unknown>;
    expect(saved).toMatchObject({
      apiType: 2,
      apiKey: 'weather',
      apiName: '天气',
      categoryId: 1,
      apiUrl: 'http://127.0.0.1:9/weather',
      id: null,
      datasourceId: null,
    });
    expect(JSON.parse(saved.note as string).params).toEqual([{ name: '', key: 'city', datatype: 'string', def: '杭州' }]);

    fireEvent.click(screen.getByTestId('dataapi-preview'));
    await screen.findByTestId('dataapi-preview-summary', {}, { timeout: 10_000 });
    const preview = calls.find((c) => url(c).pathname === '/api/dataapi/preview')!.body as Record<string, unknown>;
    expect(preview).toMatchObject({ apiKey: 'weather', params: { city: '杭州' }, apiParam: JSON.stringify({ city: '杭州' }) });
    // The fields came from the first row: city a dimension, temp a dimension until set otherwise.
    expect(screen.getByTestId('dataapi-panel-rows').textContent).toContain('city');
    fireEvent.click(screen.getByTestId('dataapi-kind-json'));
    expect(screen.getByTestId('dataapi-preview-json').textContent).toContain('"temp": 21');
  });

  it('warns 请检查语法 when the handler does not compile', async () => {
    mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/dataapi/categories') return categories;
      if (path === '/api/dataapi/apis/5') return ok(api());
      if (path === '/api/dataapi/apis' && c.method === 'POST') return fail(400, '请检查语法');
      return ok([]);
    });
    renderWithApp(<DataApiEditorPage withChart={false} />, { path: '/apiedit?id=5' });
    await waitFor(() => expect(byTestId<HTMLInputElement>('dataapi-key').value).toBe('weather'));
    fireEvent.change(await screen.findByTestId('dataapi-js'), { target: { value: 'function (data) { return data' } });
    fireEvent.click(screen.getByTestId('dataapi-save'));
    await screen.findByText('请检查语法');
  });

  it('shows the defaults as JSON, ignoring parameters with an empty key', async () => {
    mockFetch((c) => {
      if (url(c).pathname === '/api/dataapi/by-key/weather')
        return ok(
          api({
            note: JSON.stringify({
              showFields: [],
              params: [
                { name: '城市', key: 'city', datatype: 'string', def: '杭州' },
                { name: '空', key: '', datatype: 'number', def: 3 },
                { name: '日', key: 'day', datatype: 'date', def: '20240131' },
              ],
            }),
          }),
        );
      return url(c).pathname === '/api/dataapi/categories' ? categories : ok([]);
    });
    renderWithApp(<DataApiEditorPage withChart />, { path: '/apiedit1?apiKey=weather' });
    fireEvent.click(await screen.findByText('默认值 JSON'));
    await waitFor(() => expect(byTestId('dataapi-param-json').textContent).toContain('20240131'));
    expect(JSON.parse(byTestId('dataapi-param-json').textContent!)).toEqual({ city: '杭州', day: '20240131' });
  });
});

describe('保存为枚举字典 (spec 2 §5)', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('needs a preview (请先预览) and a name (请输入字典名), then saves the ID/VALUE/PID tree', async () => {
    const calls = mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/dataapi/categories') return categories;
      if (path === '/api/dataapi/apis/5') return ok(api());
      if (path === '/api/dataapi/preview')
        return ok({
          data: [
            { ID: 1, VALUE: '华东', PID: null },
            { ID: 11, VALUE: '浙江', PID: 1 },
          ],
          rows: 2,
          elapsedMs: 1,
          truncated: false,
        });
      if (path === '/api/dataapi/dicts') return ok({ id: 1 }, '保存成功');
      return ok([]);
    });
    renderWithApp(<DataApiEditorPage withChart />, { path: '/apiedit1?id=5' });
    await waitFor(() => expect(byTestId<HTMLInputElement>('dataapi-key').value).toBe('weather'));
    fireEvent.click(screen.getByTestId('dataapi-save-dict'));
    await screen.findByText('请先预览');

    fireEvent.click(screen.getByTestId('dataapi-preview'));
    await screen.findByTestId('dataapi-preview-summary', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('dataapi-save-dict'));
    const dialogOk = () => document.querySelector<HTMLButtonElement>('.ant-modal-footer .ant-btn-primary')!;
    await screen.findByTestId('dataapi-dict-name');
    fireEvent.click(dialogOk());
    await screen.findByText('请输入字典名');
    type('dataapi-dict-name', '区域');
    fireEvent.click(dialogOk());
    await waitFor(() => expect(calls.some((c) => url(c).pathname === '/api/dataapi/dicts')).toBe(true));
    const body = calls.find((c) => url(c).pathname === '/api/dataapi/dicts')!.body as { keyCode: string; content: string; apiId: number };
    expect(body.keyCode).toBe('区域');
    expect(body.apiId).toBe(5);
    expect(JSON.parse(body.content)).toEqual([{ key: 1, value: '华东', children: [{ key: 11, value: '浙江' }] }]);
  });
});

describe('type-3 editor (spec 2 §5)', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('checks category, key, name, data source and table in this order', () => {
    const steps = [
      {},
      { categoryId: 1 },
      { categoryId: 1, apiKey: 'k' },
      { categoryId: 1, apiKey: 'k', apiName: 'n' },
      { categoryId: 1, apiKey: 'k', apiName: 'n', datasourceId: 2 },
    ];
    expect(steps.map(firstMissing)).toEqual(['请选择分类', '请输入接口key', '请输入接口名', '请选择数据源', '请选择数据表']);
    expect(firstMissing({ categoryId: 1, apiKey: 'k', apiName: 'n', datasourceId: 2, queryTable: 'orders' })).toBeNull();
  });

  it('says 请选择分类 first and sends nothing', async () => {
    const calls = mockFetch((c) => (url(c).pathname === '/api/dataapi/categories' ? categories : ok([])));
    renderWithApp(<Type3EditorPage />, { path: '/apiedit3' });
    type('dataapi-key', 'orders_by_province');
    fireEvent.click(await screen.findByTestId('dataapi-save'));
    expect((await screen.findAllByText('请选择分类')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('previews a saved type-3 API with its parameters, as a chart preview', async () => {
    const calls = mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/dataapi/categories') return categories;
      if (path === '/api/dataapi/apis/9')
        return ok(
          api({
            id: 9,
            apiKey: 'orders_t3',
            apiType: 3,
            datasourceId: 1,
            queryTable: 'orders',
            queryParam: [{ title: '省份', columnName: 'province', paramName: 'province', columnType: 'STRING(20)', optionalStatus: 1 }],
          }),
        );
      if (path === '/api/dataapi/preview') return ok({ data: [{ order_id: 1, province: '浙江' }], rows: 1, elapsedMs: 2, truncated: false });
      return ok([]);
    });
    renderWithApp(<Type3EditorPage />, { path: '/apiedit3?id=9' });
    const province = await screen.findByLabelText('省份');
    fireEvent.change(province, { target: { value: '浙江' } });
    fireEvent.click(screen.getByRole('button', { name: /刷新/ }));
    await screen.findByTestId('dataapi-preview-summary', {}, { timeout: 10_000 });
    expect(calls.find((c) => url(c).pathname === '/api/dataapi/preview')!.body).toEqual({ apiKey: 'orders_t3', params: { province: '浙江' } });
    expect(screen.getAllByText('浙江').length).toBeGreaterThan(0);
    // The chart preview of /apiedit1: chart kinds, the fields from the first row in the row panel, the table view.
    expect(screen.getByTestId('dataapi-kinds')).toBeTruthy();
    expect(screen.getByTestId('dataapi-panel-rows').textContent).toContain('province');
    expect(screen.getByTestId('dataapi-chart-table')).toBeTruthy();
  });
});
