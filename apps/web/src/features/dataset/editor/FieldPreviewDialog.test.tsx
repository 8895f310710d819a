import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import type { EditorField } from './model-state.ts';
import { FieldPreviewDialog } from './FieldPreviewDialog.tsx';
import { FieldSelectDrawer } from './FieldSelectDrawer.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('field preview', () => {
  it("shows a view's columns with types and comments, and its first rows read through the model preview", async () => {
    const calls = mockFetch((c) => {
      if (c.url.startsWith('/api/datasource/3/columns')) {
        return ok([
          { name: 'province', comment: '省份', dbType: 'VARCHAR', viewDataType: 'STRING' },
          { name: 'total', comment: '', dbType: 'DOUBLE', viewDataType: 'NUMBER' },
        ]);
      }
      if (c.url === '/api/query/preview') {
        return ok({
          dataList: [{ d0: '广东', d1: 120.5 }],
          fieldDict: [
            { alias: 'd0', fieldId: 'c0', title: '省份（province）', viewDataType: 'STRING', kind: 'dimension', aggregation: null, granularity: null },
            { alias: 'd1', fieldId: 'c1', title: 'total', viewDataType: 'NUMBER', kind: 'dimension', aggregation: null, granularity: null },
          ],
        });
      }
      return undefined;
    });
    renderWithApp(
      <FieldPreviewDialog datasourceId={3} table={{ tableName: 'V_SQL_202611250101', tableComment: '省份汇总', schema: null }} onClose={() => {}} />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('字段预览：省份汇总（V_SQL_202611250101）')).toBeTruthy();
    const columns = await within(dialog).findByTestId('ds-field-preview-columns');
    await waitFor(() => expect(within(columns).getByText('province')).toBeTruthy());
    expect(within(columns).getByText('DOUBLE')).toBeTruthy();
    expect(within(columns).getByText('省份')).toBeTruthy();
    expect(calls.find((c) => c.url.startsWith('/api/datasource/3/columns'))!.url).toContain('tableName=V_SQL_202611250101');

    fireEvent.click(within(dialog).getByRole('tab', { name: '数据预览' }));
    expect(await within(dialog).findByText('广东')).toBeTruthy();
    const preview = calls.find((c) => c.url === '/api/query/preview')!;
    const body = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob((preview.body as { payload: string }).payload), (ch) => ch.charCodeAt(0))));
    expect(body.model.tables).toEqual([{ tableName: 'V_SQL_202611250101', tableAliasName: 't', schema: null }]);
    expect(body.request).toMatchObject({ detail: true, limit: 20 });
  });
});

const field = (id: string, columnTitle: string, hiddenStatus: 0 | 1, tableAliasName = 'a'): EditorField =>
  ({ id, columnTitle, columnName: id, columnAttr: 'NORMAL', tableAliasName, hiddenStatus }) as EditorField;

describe('field selection drawer', () => {
  it('selects all, searches, inverts and confirms the ticked fields of one table', async () => {
    const fields = [field('province', '省份', 0), field('city', '城市', 1), field('amount', '金额', 0), field('other', '别的表', 0, 'b')];
    const onConfirm = vi.fn();
    renderWithApp(<FieldSelectDrawer selection={{ alias: 'a', label: '订单' }} fields={fields} onClose={() => {}} onConfirm={onConfirm} />);
    expect(await screen.findByText('已选 2 / 3 个字段')).toBeTruthy();
    expect(screen.queryByText('别的表')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    expect(screen.getByText('已选 3 / 3 个字段')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('搜索字段'), { target: { value: '金' } });
    expect(screen.queryByText('省份')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '反选' }));
    expect(screen.getByText('已选 2 / 3 个字段')).toBeTruthy();
    fireEvent.click(screen.getByTestId('ds-field-select-ok'));
    expect(onConfirm).toHaveBeenCalledWith('a', new Set(['province', 'city']));
  });
});
