import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { AlertFilter } from '@shutu/contracts';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import type { FieldOption } from '../api.ts';
import { emptyDraft, type AlertDraft } from './draft.ts';
import { FiltersSection } from './FiltersSection.tsx';

const fields: FieldOption[] = [
  { id: 1, columnTitle: '省份', dimensionType: 'WEIDU', viewDataType: 'STRING', aggregationType: 'COUNT' },
  { id: 2, columnTitle: '订购时间', dimensionType: 'WEIDU', viewDataType: 'DATETIME', aggregationType: 'COUNT' },
  { id: 3, columnTitle: '订单数', dimensionType: 'ZHIBIAO', viewDataType: 'NUMBER', aggregationType: 'COUNT' },
];
const threshold: AlertFilter = { cubeColumnId: 3, connectTime: 'having', conditions: [{ function: 'gt', values: [0] }] };

function Harness({ initial, onDraft }: { initial: AlertFilter[]; onDraft: (d: AlertDraft) => void }) {
  const [draft, setDraft] = useState<AlertDraft>({ ...emptyDraft(), cubeDataId: 9, filterJson: initial });
  return (
    <FiltersSection
      draft={draft}
      fields={fields}
      onChange={(d) => {
        setDraft(d);
        onDraft(d);
      }}
    />
  );
}
const last = (onDraft: ReturnType<typeof vi.fn>) => (onDraft.mock.calls.at(-1)![0] as AlertDraft).filterJson;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the alert condition builder (spec 3 §3 "Filter")', () => {
  it('joins two conditions of one field by the item connectType (且 → 或) and keeps the thresholds', async () => {
    mockFetch(() => undefined);
    const onDraft = vi.fn();
    const item: AlertFilter = {
      uniqId: 'a',
      cubeColumnId: 1,
      columnTitle: '省份',
      connectTime: 'where',
      conditions: [
        { function: 'eq', values: ['广东'] },
        { function: 'eq', values: ['浙江'] },
      ],
    };
    renderWithApp(<Harness initial={[item, threshold]} onDraft={onDraft} />);
    fireEvent.click(await screen.findByTestId('alert-condition-item-0-connect'));
    await waitFor(() =>
      expect(last(onDraft)[0]).toMatchObject({ connectType: 'or', connectTime: 'where', conditions: [{ values: ['广东'] }, { values: ['浙江'] }] }),
    );
    expect(last(onDraft)[1]).toEqual(threshold);
  });

  it('a date condition switches to relative time: whole units before or after the check', async () => {
    mockFetch(() => undefined);
    const onDraft = vi.fn();
    const item: AlertFilter = {
      uniqId: 'd',
      cubeColumnId: 2,
      columnTitle: '订购时间',
      connectTime: 'where',
      conditions: [{ function: 'between', values: [] }],
    };
    renderWithApp(<Harness initial={[item]} onDraft={onDraft} />);
    fireEvent.mouseDown(screen.getByTestId('alert-condition-item-0-time-type').querySelector('input')!);
    fireEvent.click(await screen.findByTitle('相对时间'));
    await waitFor(() => expect(last(onDraft)[0]!.conditions[0]).toMatchObject({ function: 'between', timeType: 'relative', countType: 'left' }));
  });

  it("picks condition values from a data API's options (enumSource 2), the dataset filter's pick-list", async () => {
    mockFetch((c) => {
      if (c.url === '/api/dataapi/pick-sources') return ok([{ id: 7, apiName: '省份列表', apiKey: 'provinces' }]);
      if (c.url === '/api/dataapi/apis/7/options') return ok({ options: [{ value: '浙江', label: '浙江省' }] });
      return undefined;
    });
    const onDraft = vi.fn();
    renderWithApp(<Harness initial={[]} onDraft={onDraft} />);
    fireEvent.click(screen.getByTestId('alert-add-condition'));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '值来源' }));
    fireEvent.click(await screen.findByTitle('数据接口'));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '选择数据接口' }));
    fireEvent.click(await screen.findByTitle('省份列表'));
    // The value input opens once the API's options are there.
    await waitFor(() => expect(document.querySelector('.ft-value-pick.ant-select-disabled')).toBeNull());
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '请选择' }));
    fireEvent.click(await screen.findByTitle('浙江省'));
    await waitFor(() =>
      expect(last(onDraft)[0]).toMatchObject({
        cubeColumnId: 1,
        columnTitle: '省份',
        enumSource: 2,
        enumId: 7,
        conditions: [{ function: 'eq', values: ['浙江'] }],
      }),
    );
  });
});
