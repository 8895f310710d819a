import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataSourceColumn, DatasetFieldDraft } from '@shutu/contracts';
import { decodeBase64Json } from '@shutu/contracts';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { FieldCheckButton } from './FieldCheckDialog.tsx';
import { fieldsFromColumns, type EditorField, type EditorTable } from './model-state.ts';

const col = (name: string, viewDataType: DataSourceColumn['viewDataType'], comment: string): DataSourceColumn => ({ name, comment, dbType: '', viewDataType });
const orders: EditorTable = { tableName: 'orders', tableAliasName: 'ooooo', tableComment: '订单' };
const initial = (): EditorField[] => fieldsFromColumns([col('province', 'STRING', '省份'), col('amount', 'NUMBER', '金额')], orders, []);

const draft = (columnName: string, columnTitle: string, viewDataType: DatasetFieldDraft['viewDataType']): DatasetFieldDraft => ({
  columnName,
  columnTitle,
  columnComment: columnTitle,
  columnAttr: 'NORMAL',
  columnFormula: null,
  tableName: 'orders',
  tableAliasName: 'ooooo',
  dimensionType: viewDataType === 'NUMBER' ? 'ZHIBIAO' : 'WEIDU',
  viewDataType,
  oldViewDataType: viewDataType,
  hiddenStatus: 0,
  sortNum: 3,
  numberDataFormat: 'AUTO',
  timeDataFormat: 'yyyy_MM_ddhh$mm$ss',
  aggregationType: 'SUM',
  virtualAggregationStatus: 0,
  isExtra: 0,
});

let latest: EditorField[] = [];
function Harness() {
  const [fields, setFields] = useState(initial);
  useEffect(() => {
    latest = fields;
  }, [fields]);
  return <FieldCheckButton datasourceId={7} tables={[orders]} fields={fields} onChange={(update) => setFields((fs) => update(fs))} />;
}

describe('FieldCheckButton', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says 无可同步字段 and opens no dialog when every column is in the dataset', async () => {
    const calls = mockFetch((c) => (c.url.startsWith('/api/dataset/field-check') ? ok([], '无可同步字段') : undefined));
    renderWithApp(<Harness />);
    fireEvent.click(screen.getByTestId('ds-field-check'));
    expect(await screen.findByText('无可同步字段')).toBeTruthy();
    expect(screen.queryByTestId('field-check-dialog')).toBeNull();
    const body = decodeBase64Json((calls[0]!.body as { payload: string }).payload) as {
      datasourceId: number;
      cubeTableNames: { tableName: string; tableAliasName: string }[];
      columnList: { columnName: string; columnTitle: string; tableAliasName: string }[];
    };
    expect(body.datasourceId).toBe(7);
    expect(body.cubeTableNames).toMatchObject([{ tableName: 'orders', tableAliasName: 'ooooo' }]);
    expect(body.columnList.map((c) => `${c.tableAliasName}.${c.columnName}:${c.columnTitle}`)).toEqual(['ooooo.province:省份', 'ooooo.amount:金额']);
  });

  it('lists the missing columns all ticked and adds the ticked ones as new fields', async () => {
    mockFetch((c) =>
      c.url.startsWith('/api/dataset/field-check')
        ? ok([draft('region', '大区', 'STRING'), draft('qty', '数量', 'NUMBER'), draft('city', '城市', 'STRING')])
        : undefined,
    );
    renderWithApp(<Harness />);
    fireEvent.click(screen.getByTestId('ds-field-check'));
    const dialog = await screen.findByTestId('field-check-dialog');
    expect(within(dialog).getByText('已选 3 项')).toBeTruthy();
    // Untick 城市.
    fireEvent.click(within(within(dialog).getByTestId('check-城市').closest('tr') as HTMLElement).getByRole('checkbox'));
    expect(within(dialog).getByText('已选 2 项')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('field-check-ok'));
    expect(await screen.findByText('已添加 2 个字段')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('field-check-dialog')).toBeNull());
    const added = latest.slice(2);
    expect(added.map((f) => [f.columnTitle, f.columnName, f.dimensionType, f.sortNum])).toEqual([
      ['大区', 'region', 'WEIDU', 2],
      ['数量', 'qty', 'ZHIBIAO', 2],
    ]);
    expect(added.every((f) => typeof f.id === 'string' && /[a-z]/.test(String(f.id)))).toBe(true);
  });

  it('refuses to confirm with nothing ticked', async () => {
    mockFetch((c) => (c.url.startsWith('/api/dataset/field-check') ? ok([draft('region', '大区', 'STRING')]) : undefined));
    renderWithApp(<Harness />);
    fireEvent.click(screen.getByTestId('ds-field-check'));
    const dialog = await screen.findByTestId('field-check-dialog');
    fireEvent.click(within(within(dialog).getByTestId('check-大区').closest('tr') as HTMLElement).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByTestId('field-check-ok'));
    expect(await screen.findByText('请至少选择一个字段')).toBeTruthy();
    expect(latest).toHaveLength(2);
  });
});
