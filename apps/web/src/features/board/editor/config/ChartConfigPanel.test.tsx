import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { BoardType, Chart } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../../test/render.tsx';
import { cube, page } from '../../../dataset/test-fixtures.ts';
import { ChartConfigPanel } from './ChartConfigPanel.tsx';
import { emptyConfig } from './rules.ts';
import { configChart, configField } from './test-fixtures.ts';

const salesFields = [
  configField(1, '区域'),
  configField(2, '下单日期', { viewDataType: 'DATETIME' }),
  configField(3, '金额', { dimensionType: 'ZHIBIAO', viewDataType: 'NUMBER', aggregationType: 'SUM' }),
  configField(4, '数量', { dimensionType: 'ZHIBIAO', viewDataType: 'NUMBER', aggregationType: 'SUM' }),
  configField(5, '内部备注', { hiddenStatus: 1 }),
];
const storeFields = [configField(50, '区域', { cubeId: 8 }), configField(51, '门店', { cubeId: 8 })];

function serve() {
  return mockFetch((c: Call) => {
    const url = new URL(c.url, 'http://x');
    if (url.pathname === '/api/dataset/cubes') return ok(page([cube(7, '销售订单'), cube(8, '门店档案')]));
    if (url.pathname === '/api/dataset/cubes/7/fields') return ok(salesFields);
    if (url.pathname === '/api/dataset/cubes/8/fields') return ok(storeFields);
    if (url.pathname === '/api/board/chart-data') return ok({ fieldDict: [], dataList: [], total: null, elapsedMs: 1, shared: false });
    return undefined;
  });
}

/** The panel inside a host that keeps the chart, as the editor does; `changes` records every onChange. */
function mount(
  initial: Chart,
  others: Chart[] = [],
  { boardType = 'screen', defaultCubeId = null }: { boardType?: BoardType; defaultCubeId?: number | null } = {},
) {
  const changes: Chart[] = [];
  function Host() {
    const [chart, setChart] = useState(initial);
    return (
      <ChartConfigPanel
        chart={chart}
        charts={[...others, chart]}
        boardType={boardType}
        defaultCubeId={defaultCubeId}
        onChange={(next) => {
          changes.push(next);
          setChart(next);
        }}
      />
    );
  }
  serve();
  renderWithApp(<Host />);
  return { changes, last: () => changes[changes.length - 1]! };
}

const fieldRow = async (title: string) => {
  await screen.findAllByTestId('ccp-field');
  return screen.getAllByTestId('ccp-field').find((r) => r.getAttribute('data-title') === title)!;
};
const addTo = async (title: string, slot: 'rows' | 'columns' | 'measures') => {
  fireEvent.click((await fieldRow(title)).querySelector<HTMLElement>(`[data-testid="ccp-add-${slot}"]`)!);
};

/** Opens the antd select carrying `testId` (or inside `root`) and clicks the option showing `text`. */
async function choose(selector: string, text: string) {
  const select = document.querySelector(selector)!;
  const root = select.closest('.ant-select') ?? select;
  fireEvent.mouseDown(root.querySelector('.ant-select-selector, [role="combobox"]') ?? root);
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find(
      (o) => o.textContent === text,
    );
    if (!found) throw new Error(`no option ${text}`);
    return found;
  });
  fireEvent.click(option);
}

const tab = (label: string) => fireEvent.click([...document.querySelectorAll<HTMLElement>('.ant-tabs-tab')].find((t) => t.textContent === label)!);
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;

describe('chart config panel', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('picks a dataset, lists its fields by role and adds a dimension and a measure', async () => {
    const { last } = mount(configChart('bar'));
    await choose('[data-testid="ccp-dataset-select"]', '销售订单');
    await fieldRow('区域');
    expect(screen.queryByText('内部备注')).toBeNull();
    expect(screen.getByText('维度作为横轴；可选 1 个列维度拆分系列；至少 1 个指标')).toBeTruthy();
    await addTo('区域', 'rows');
    await addTo('金额', 'measures');
    expect(last().dataconfig).toEqual({
      ...emptyConfig(7),
      rowParamList: [{ fieldId: 1, title: null, granularity: null }],
      indexParamList: [{ fieldId: 3, title: null, aggregation: 'SUM' }],
    });
    expect(screen.getAllByTestId('ccp-item-rows').map((i) => i.getAttribute('data-field'))).toEqual(['1']);
    // renamed and moved
    await addTo('下单日期', 'rows');
    fireEvent.change(screen.getAllByTestId('ccp-item-title')[1]!, { target: { value: '日期' } });
    fireEvent.click(screen.getAllByTestId('ccp-item-up')[1]!);
    expect(last().dataconfig!.rowParamList).toEqual([
      { fieldId: 2, title: '日期', granularity: null },
      { fieldId: 1, title: null, granularity: null },
    ]);
  });

  it('a pie refuses a second measure and shows its rule', async () => {
    const pie = configChart('pie', { dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }] } });
    const { changes } = mount(pie);
    await addTo('数量', 'measures');
    expect((await screen.findByTestId('ccp-refusal')).textContent).toContain('饼图最多 1 个指标');
    expect(byTestId('ccp-rule-hint').textContent).toContain('饼图：1 个维度 + 1 个指标');
    expect(changes).toHaveLength(0);
  });

  it('changes a date dimension’s granularity and a measure’s aggregation', async () => {
    const table = configChart('table', {
      dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 2 }], indexParamList: [{ fieldId: 3, aggregation: 'SUM' }] },
    });
    const { last } = mount(table);
    await fieldRow('区域');
    await choose('[data-testid="ccp-item-granularity"]', '月');
    expect(last().dataconfig!.rowParamList[0]).toMatchObject({ fieldId: 2, granularity: 'MONTH' });
    await choose('[data-testid="ccp-item-aggregation"]', '平均');
    expect(last().dataconfig!.indexParamList[0]).toMatchObject({ fieldId: 3, aggregation: 'AVG' });
    // The author may accept an estimate on a large table (docs/board-speed.md "Approximate distinct count").
    await choose('[data-testid="ccp-item-aggregation"]', '近似去重计数');
    expect(last().dataconfig!.indexParamList[0]).toMatchObject({ fieldId: 3, aggregation: 'APPROX_COUNT_DISTINCT' });
  });

  it('checks the limit as typed and counts filter conditions', async () => {
    const table = configChart('table', {
      dataconfig: {
        ...emptyConfig(7),
        rowParamList: [{ fieldId: 1 }],
        filter: {
          relation: 'AND',
          conditions: [
            {
              cubeColumnId: 1,
              connectType: 'and',
              conditions: [{ function: 'eq', values: ['华东'], timeType: 'absolute', countType: 'left', useParam: false }],
            },
          ],
          filters: [],
        },
      },
    });
    const { changes, last } = mount(table);
    expect((await screen.findByTestId('ccp-filter-summary')).textContent).toBe('已设置 1 个条件');
    const input = byTestId('ccp-limit-input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '20000' } });
    expect(await screen.findByText('请输入 1 到 10000 之间的整数')).toBeTruthy();
    expect(changes).toHaveLength(0);
    fireEvent.change(input, { target: { value: '500' } });
    expect(last().dataconfig!.limit).toBe(500);
    expect(screen.queryByText('请输入 1 到 10000 之间的整数')).toBeNull();
    fireEvent.click(byTestId('ccp-filter-clear'));
    expect(last().dataconfig!.filter).toBeNull();
    expect(byTestId('ccp-filter-summary').textContent).toBe('未设置');
  });

  it('asks before changing the dataset of a chart with fields, then clears them', async () => {
    const bar = configChart('bar', { dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }] } });
    const { last, changes } = mount(bar);
    await fieldRow('区域');
    await choose('[data-testid="ccp-dataset-select"]', '门店档案');
    expect(await screen.findByText('更换数据集将清空已选的维度、指标、过滤、排序和联动字段，确定更换？')).toBeTruthy();
    expect(changes).toHaveLength(0);
    fireEvent.click(document.querySelector<HTMLElement>('.ant-modal-confirm-btns .ant-btn-primary')!);
    await waitFor(() => expect(last().dataconfig).toEqual(emptyConfig(8)));
    await fieldRow('门店');
  });

  it('the style tab writes colours, legend, formats and the frame settings', async () => {
    const bar = configChart('bar', { dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }] } });
    const { last } = mount(bar);
    tab('样式');
    fireEvent.click(screen.getAllByTestId('ccp-palette').find((p) => p.getAttribute('data-name') === '商务蓝')!);
    expect(last().option.colors).toEqual(['#1f4e79', '#2e75b6', '#5b9bd5', '#9dc3e6', '#bdd7ee', '#deebf7']);
    fireEvent.click(byTestId('ccp-legend'));
    expect(last().option.showLegend).toBe(false);
    fireEvent.click(byTestId('ccp-horizontal'));
    expect(last().option.horizontal).toBe(true);
    await waitFor(() => expect(byTestId('ccp-style-formats').textContent).toContain('金额'));
    await choose('[data-testid="ccp-format"]', '千分位整数（1,234）');
    expect(last().option.formats).toEqual({ 3: '#,##0' });

    fireEvent.change(byTestId('ccp-title'), { target: { value: '各区域销售额' } });
    fireEvent.click(byTestId('ccp-show-title'));
    fireEvent.click(byTestId('ccp-title-bold'));
    fireEvent.change(byTestId('ccp-anchor'), { target: { value: '销售' } });
    fireEvent.click(byTestId('ccp-dialog'));
    fireEvent.click(byTestId('ccp-fixed'));
    fireEvent.change(byTestId('ccp-bg-image'), { target: { value: 'javascript:alert(1)' } });
    expect(await screen.findByText('图片地址须为 http(s)、以 / 开头的地址或 data:image')).toBeTruthy();
    expect(last()).toMatchObject({
      title: '各区域销售额',
      site: { isSimple: true, fontWeight: 'bold', anchor: '销售', isDiglog: true, isFilexd: true, bgBackgroundSrc: 'javascript:alert(1)' },
    });
    // 清空 of the colours section goes back to the renderer's default palette
    fireEvent.click(byTestId('ccp-style-colors-clear'));
    expect('colors' in last().option).toBe(false);
  });

  it('a table offers 显示合计 (computed by the server) but not 结构筛选, which is the pivot’s', async () => {
    const table = configChart('table', { dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }] } });
    const { last } = mount(table);
    tab('样式');
    expect(document.querySelector('[data-testid="ccp-structure"]')).toBeNull();
    fireEvent.click(byTestId('ccp-total'));
    expect(last().option.showTotal).toBe(true);
  });

  it('a text chart has no data tab and edits its text, size and alignment; quick boards have no 固定', async () => {
    const { last } = mount(configChart('text'), [], { boardType: 'quick' });
    expect([...document.querySelectorAll('.ant-tabs-tab')].map((t) => t.textContent)).toEqual(['样式', '联动']);
    expect(document.querySelector('[data-testid="ccp-fixed"]')).toBeNull();
    fireEvent.change(byTestId('ccp-text'), { target: { value: '本月销售概况' } });
    fireEvent.click(screen.getByText('居中'));
    expect(last().ext.text).toBe('本月销售概况');
    expect(last().option.textAlign).toBe('center');
  });

  it('the link tab adds a link from a filter control with the field of the same title preselected', async () => {
    const control = configChart('filterSelect', { key: 'f1', title: '区域筛选', dataconfig: { ...emptyConfig(8), rowParamList: [{ fieldId: 50 }] } });
    const target = configChart('table', { key: 'c2', title: '明细汇总', dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 2 }] } });
    const { last } = mount(target, [control]);
    tab('联动');
    await choose('[data-testid="ccp-link-driver"]', '区域筛选（下拉筛选）');
    expect(await screen.findByText('按“区域”')).toBeTruthy();
    await waitFor(() => expect(byTestId('ccp-link-new-field').textContent).toContain('区域'));
    fireEvent.click(byTestId('ccp-link-add-button'));
    expect(last().ext.filterList).toEqual([{ linkFrom: 'f1', linkKey: 1, linkFlag: true, beginFlag: false, linkSet: true }]);
    fireEvent.click(byTestId('ccp-link-begin'));
    expect(last().ext.filterList[0]!.beginFlag).toBe(true);
    fireEvent.click(byTestId('ccp-link-enabled'));
    expect(last().ext.filterList[0]!.linkFlag).toBe(false);
  });

  it('a filter control lists the charts it drives and says where links are added', async () => {
    const control = configChart('filterSelect', { key: 'f1', title: '区域筛选', dataconfig: { ...emptyConfig(8), rowParamList: [{ fieldId: 50 }] } });
    const driven = configChart('bar', {
      key: 'b1',
      title: '销售趋势',
      ext: { filterList: [{ linkFrom: 'f1', linkKey: 1, linkSet: true, linkFlag: true, beginFlag: false }] },
    });
    mount(control, [driven]);
    tab('联动');
    expect((await screen.findByTestId('ccp-driven')).textContent).toContain('销售趋势');
    expect(byTestId('ccp-drives-hint').textContent).toBe('请在被联动图表的“联动”页添加');
    expect(document.querySelector('[data-testid="ccp-links-received"]')).toBeNull();
  });

  it('the title follows the fields (dimensions, then measures) until the user types one', async () => {
    const { last } = mount(configChart('bar', { title: '柱状图' }), [], { defaultCubeId: 7 });
    await addTo('金额', 'measures');
    expect(last().title).toBe('金额');
    await addTo('区域', 'rows');
    expect(last().title).toBe('区域 · 金额');
    // Renaming an item renames the title too.
    fireEvent.change(screen.getAllByTestId('ccp-item-title')[0]!, { target: { value: '大区' } });
    expect(last().title).toBe('大区 · 金额');
    tab('样式');
    fireEvent.change(byTestId('ccp-title'), { target: { value: '各大区销售额' } });
    tab('数据');
    await addTo('数量', 'measures');
    expect(last().dataconfig!.indexParamList).toHaveLength(2);
    expect(last().title).toBe('各大区销售额');
  });

  it('a filter lists the charts it applies to board-wide; unticking one opts it out; another dataset joins by a mapped field', async () => {
    const control = configChart('filterSelect', {
      key: 'f1',
      title: '区域',
      dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }] },
      ext: { filterList: [], autoLink: true },
    });
    const bar = configChart('bar', {
      key: 'bar',
      title: '各区域金额',
      dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }] },
    });
    const card = configChart('card', { key: 'card', title: '总金额', dataconfig: { ...emptyConfig(7), indexParamList: [{ fieldId: 3 }] } });
    const stores = configChart('table', { key: 'stores', title: '门店数', dataconfig: { ...emptyConfig(8), rowParamList: [{ fieldId: 51 }] } });
    const { last } = mount(control, [bar, card, stores]);
    tab('联动');
    await screen.findAllByTestId('ccp-target');
    const targets = () =>
      screen.getAllByTestId('ccp-target').map((t) => [t.getAttribute('data-chart'), t.querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked]);
    expect(targets()).toEqual([
      ['bar', true],
      ['card', true],
    ]);
    fireEvent.click(screen.getAllByTestId('ccp-target')[1]!.querySelector('input')!);
    expect(last().ext.autoLinkExclude).toEqual(['card']);
    expect(targets()).toEqual([
      ['bar', true],
      ['card', false],
    ]);
    await choose('[data-testid="ccp-target-map"]', '区域（同名字段）');
    expect(last().ext.autoLinkFields).toEqual({ '8': 50 });
    expect(targets()).toEqual([
      ['bar', true],
      ['card', false],
      ['stores', true],
    ]);
    // Switched off: only hand-made links apply.
    fireEvent.click(byTestId('ccp-targets-auto'));
    expect(last().ext.autoLink).toBe(false);
    expect(screen.queryAllByTestId('ccp-target')).toHaveLength(0);
  });
});
