import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { DataSourceColumn } from '@shutu/contracts';
import { renderWithApp } from '../../../test/render.tsx';
import { BatchConfigTab } from './BatchConfigTab.tsx';
import { fieldsFromColumns, type EditorField } from './model-state.ts';

const col = (name: string, viewDataType: DataSourceColumn['viewDataType'], comment: string): DataSourceColumn => ({ name, comment, dbType: '', viewDataType });
const initial = (): EditorField[] =>
  fieldsFromColumns(
    [col('province', 'STRING', '省份'), col('order_date', 'DATETIME', '下单日期'), col('amount', 'NUMBER', '金额'), col('qty', 'NUMBER', '数量')],
    { tableName: 'orders', tableAliasName: 'ooooo', tableComment: '订单' },
    [],
  );

let latest: EditorField[] = [];
function Harness() {
  const [fields, setFields] = useState(initial);
  useEffect(() => {
    latest = fields;
  }, [fields]);
  return <BatchConfigTab fields={fields} onChange={(update) => setFields((fs) => update(fs))} />;
}

const row = (title: string) => screen.getByTestId(`batch-title-${title}`).closest('tr') as HTMLElement;
const tick = (title: string) => fireEvent.click(within(row(title)).getByRole('checkbox'));
const cell = (title: string, index: number) => within(row(title)).getAllByRole('cell')[index]!.textContent;
// Columns: selection, title, column/formula, table, type, format, aggregation, hidden, kind.
const AGG = 6;
const HIDDEN = 7;
const KIND = 8;

async function choose(label: string, option: string) {
  const select = screen.getByLabelText(label).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const items = await screen.findAllByTitle(option);
  fireEvent.click(items[items.length - 1]!);
}

describe('BatchConfigTab', () => {
  afterEach(cleanup);

  it('lists every field with its settings and counts the selection', () => {
    renderWithApp(<Harness />);
    expect(cell('金额', 2)).toBe('amount');
    expect(cell('金额', 4)).toBe('数值');
    expect(cell('金额', 5)).toBe('自动');
    expect(cell('下单日期', 5)).toBe('yyyy-MM-dd hh:mm:ss');
    expect(cell('金额', AGG)).toBe('求和');
    expect(cell('省份', AGG)).toBe('-');
    expect(screen.getByTestId('batch-count').textContent).toBe('已选 0 项');
    tick('省份');
    tick('金额');
    expect(screen.getByTestId('batch-count').textContent).toBe('已选 2 项');
  });

  it('applies the default aggregation only to number indicators and says how many were skipped', async () => {
    renderWithApp(<Harness />);
    tick('省份');
    tick('金额');
    tick('数量');
    await choose('默认聚合', '平均值');
    fireEvent.click(screen.getByTestId('batch-apply'));
    expect(await screen.findByText(/1 个字段不支持默认聚合/)).toBeTruthy();
    expect(cell('金额', AGG)).toBe('平均值');
    expect(cell('数量', AGG)).toBe('平均值');
    expect(latest.find((f) => f.columnTitle === '省份')!.aggregationType).toBe('SUM');
  });

  it('hides and moves the selected fields at once, renumbering both groups', async () => {
    renderWithApp(<Harness />);
    tick('金额');
    await choose('显示/隐藏', '隐藏');
    await choose('维度/指标', '维度');
    fireEvent.click(screen.getByTestId('batch-apply'));
    expect(await screen.findByText('已应用到 1 个字段')).toBeTruthy();
    expect(cell('金额', HIDDEN)).toBe('是');
    expect(cell('金额', KIND)).toBe('维度');
    const order = (kind: string) =>
      latest
        .filter((f) => f.dimensionType === kind)
        .sort((a, b) => a.sortNum - b.sortNum)
        .map((f) => `${f.columnTitle}:${f.sortNum}`);
    expect(order('WEIDU')).toEqual(['省份:1', '下单日期:2', '金额:3']);
    expect(order('ZHIBIAO')).toEqual(['数量:1']);
  });

  it('offers AUTO and the built-in number formats only, and sets them on the selection', async () => {
    renderWithApp(<Harness />);
    const select = screen.getByLabelText('数值格式').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(within(select).getByRole('combobox'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toContain('自动');
    expect(options).not.toContain('自定义');
    fireEvent.click((await screen.findAllByTitle('千分位两位小数（1,234.57）')).at(-1)!);
    tick('金额');
    fireEvent.click(screen.getByTestId('batch-apply'));
    expect(await screen.findByText('已应用到 1 个字段')).toBeTruthy();
    expect(cell('金额', 5)).toBe('千分位两位小数（1,234.57）');
    expect(cell('数量', 5)).toBe('自动');
  });

  it('asks for a selection and for something to apply', async () => {
    renderWithApp(<Harness />);
    fireEvent.click(screen.getByTestId('batch-apply'));
    expect(await screen.findByText('请先选择字段')).toBeTruthy();
    tick('金额');
    fireEvent.click(screen.getByTestId('batch-apply'));
    expect(await screen.findByText('请选择要修改的配置')).toBeTruthy();
  });
});
