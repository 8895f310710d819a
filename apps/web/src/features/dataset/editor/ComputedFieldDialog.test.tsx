import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataSourceColumn, FunctionList, GlobalParam } from '@shutu/contracts';
import { decodeBase64Json } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ComputedFieldDialog, paramToken } from './ComputedFieldDialog.tsx';
import { fieldsFromColumns, type EditorField, type EditorTable } from './model-state.ts';

const col = (name: string, viewDataType: DataSourceColumn['viewDataType'], comment: string): DataSourceColumn => ({ name, comment, dbType: '', viewDataType });
const orders: EditorTable = { tableName: 'orders', tableAliasName: 'ooooo', tableComment: '订单' };
const users: EditorTable = { tableName: 'users', tableAliasName: 'uuuuu', tableComment: '用户' };
const fields: EditorField[] = fieldsFromColumns([col('province', 'STRING', '省份'), col('amount', 'NUMBER', '金额')], orders, []);

const param = (id: number, paramName: string, paramKey: string, paramColumnType: GlobalParam['paramColumnType']): GlobalParam => ({
  id,
  typeId: 1,
  typeName: '通用',
  paramName,
  paramKey,
  paramColumnType,
  createTime: '',
  updateTime: '',
});
const functions: FunctionList = {
  dsType: 'postgres',
  categories: [
    { value: 'aggregate', label: '聚合函数' },
    { value: 'math', label: '数学函数' },
  ],
  functions: [
    { name: 'SUM', category: 'aggregate', description: '求和', example: 'SUM([金额])', aggregate: true, minArgs: 1, maxArgs: 1 },
    { name: 'ROUND', category: 'math', description: '四舍五入', example: 'ROUND([金额], 2)', aggregate: false, minArgs: 1, maxArgs: 2 },
  ],
};

/** The server: a formula aggregates when it calls SUM; functions and parameters as above. */
function serve() {
  return mockFetch((c: Call) => {
    if (c.url.startsWith('/api/query/formula-check')) {
      const { columnFormula } = decodeBase64Json((c.body as { payload: string }).payload) as { columnFormula: string };
      return ok({ hasAggregation: columnFormula.includes('SUM(') });
    }
    if (c.url.startsWith('/api/query/functions')) return ok(functions);
    if (c.url.startsWith('/api/global-param/params'))
      return ok({ records: [param(1, '地区', 'region', 'STRING'), param(2, '年份', 'year', 'NUMBER')], total: 2, current: 1, size: 10000 });
    return undefined;
  });
}

function open(props: { fixedAlias?: string | null; field?: EditorField | null } = {}) {
  const onOk = vi.fn();
  renderWithApp(
    <ComputedFieldDialog
      open
      field={props.field ?? null}
      fields={fields}
      tables={[orders, users]}
      datasourceId={3}
      dsType="postgres"
      fixedAlias={props.fixedAlias}
      onOk={onOk}
      onCancel={() => undefined}
    />,
  );
  return onOk;
}

const formula = () => screen.getByTestId('cf-formula') as HTMLTextAreaElement;
const tableSelect = () => screen.getByTestId('cf-table');

async function choose(label: string, option: string) {
  const select = screen.getByLabelText(label).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const items = await screen.findAllByTitle(option);
  fireEvent.click(items[items.length - 1]!);
}

describe('paramToken', () => {
  it('inserts ${key}, quoted for string parameters', () => {
    expect(paramToken({ paramKey: 'region', paramColumnType: 'STRING' })).toBe("'${region}'");
    expect(paramToken({ paramKey: 'year', paramColumnType: 'NUMBER' })).toBe('${year}');
    expect(paramToken({ paramKey: 'day', paramColumnType: 'DATETIME' })).toBe('${day}');
  });
});

describe('ComputedFieldDialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('opened from a node: the table is fixed to that node and the field belongs to it', async () => {
    serve();
    const onOk = open({ fixedAlias: 'uuuuu' });
    expect(tableSelect().textContent).toContain('用户');
    expect(tableSelect().className).toContain('ant-select-disabled');
    fireEvent.change(screen.getByTestId('cf-title'), { target: { value: '用户数' } });
    fireEvent.change(formula(), { target: { value: '[金额] * 2' } });
    fireEvent.click(screen.getByTestId('cf-ok'));
    await waitFor(() => expect(onOk).toHaveBeenCalled());
    expect(onOk.mock.calls[0]![0]).toMatchObject({ tableAliasName: 'uuuuu', tableName: 'users', columnAttr: 'VIRTUAL' });
  });

  it('opened from the toolbar: the whole view by default and the table is free', async () => {
    serve();
    open();
    expect(tableSelect().textContent).toContain('整个数据集');
    expect(tableSelect().className).not.toContain('ant-select-disabled');
    await choose('所属表', '订单');
    expect(tableSelect().textContent).toContain('订单');
  });

  it('offers a default aggregation only for a number indicator whose formula has no aggregate', async () => {
    serve();
    const onOk = open();
    fireEvent.change(screen.getByTestId('cf-title'), { target: { value: '双倍金额' } });
    fireEvent.change(formula(), { target: { value: '[金额] * 2' } });
    await screen.findByTestId('cf-aggregation-row', {}, { timeout: 3000 });
    await choose('默认聚合', '平均值');

    // A dimension is offered none.
    fireEvent.click(screen.getByText('维度'));
    expect(screen.queryByTestId('cf-aggregation-row')).toBeNull();
    fireEvent.click(screen.getByText('指标'));
    expect(screen.getByTestId('cf-aggregation-row')).toBeTruthy();

    fireEvent.click(screen.getByTestId('cf-ok'));
    await waitFor(() => expect(onOk).toHaveBeenCalled());
    expect(onOk.mock.calls[0]![0]).toMatchObject({ aggregationType: 'AVG', virtualAggregationStatus: 0, dimensionType: 'ZHIBIAO' });
  });

  it('offers none when the formula aggregates, and keeps SUM', async () => {
    const calls = serve();
    const onOk = open();
    fireEvent.change(screen.getByTestId('cf-title'), { target: { value: '总金额' } });
    fireEvent.change(formula(), { target: { value: 'SUM([金额])' } });
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/query/formula-check'))).toBe(true), { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('cf-aggregation-row')).toBeNull();
    fireEvent.click(screen.getByTestId('cf-ok'));
    await waitFor(() => expect(onOk).toHaveBeenCalled());
    expect(onOk.mock.calls[0]![0]).toMatchObject({ aggregationType: 'SUM', virtualAggregationStatus: 1 });
  });

  it('lists the data source functions by category; a click inserts NAME()', async () => {
    const calls = serve();
    open();
    fireEvent.click(screen.getByRole('tab', { name: '函数' }));
    const list = await screen.findByTestId('cf-functions');
    expect(within(list).getByText('聚合函数')).toBeTruthy();
    expect(within(list).getByText('数学函数')).toBeTruthy();
    expect(within(list).getByText('四舍五入')).toBeTruthy();
    expect(calls.find((c) => c.url.startsWith('/api/query/functions'))!.url).toContain('dsType=postgres');
    fireEvent.click(within(list).getByTestId('cf-fn-ROUND'));
    expect(formula().value).toBe('ROUND()');
  });

  it('inserts global parameters, quoting string ones', async () => {
    const calls = serve();
    open();
    fireEvent.change(formula(), { target: { value: '[省份] = ' } });
    formula().setSelectionRange(7, 7);
    fireEvent.click(screen.getByRole('tab', { name: '全局参数' }));
    const list = await screen.findByTestId('cf-params');
    fireEvent.click(within(list).getByTestId('cf-param-region'));
    expect(formula().value).toBe("[省份] = '${region}'");
    const url = new URL(calls.find((c) => c.url.startsWith('/api/global-param/params'))!.url, 'http://x');
    expect([url.searchParams.get('current'), url.searchParams.get('size')]).toEqual(['1', '10000']);
  });

  it('still requires title and formula', async () => {
    serve();
    const onOk = open();
    fireEvent.click(screen.getByTestId('cf-ok'));
    expect(await screen.findByText('请补充完整')).toBeTruthy();
    expect(onOk).not.toHaveBeenCalled();
  });
});
