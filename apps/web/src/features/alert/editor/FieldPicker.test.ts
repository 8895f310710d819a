import { describe, expect, it } from 'vitest';
import { alertMessages } from '@shutu/contracts';
import type { FieldOption } from '../api.ts';
import { emptyDraft, type AlertDraft } from './draft.ts';
import { pickInto } from './FieldPicker.tsx';

const field = (id: number, columnTitle: string, dimensionType: FieldOption['dimensionType']): FieldOption => ({
  id,
  columnTitle,
  dimensionType,
  viewDataType: dimensionType === 'ZHIBIAO' ? 'NUMBER' : 'STRING',
  aggregationType: 'COUNT',
});
const province = field(1, '省份', 'WEIDU');
const orders = field(2, '订单数', 'ZHIBIAO');
const time = field(3, '订购时间', 'WEIDU');
const ok = (d: AlertDraft | string) => {
  if (typeof d === 'string') throw new Error(d);
  return d;
};

describe('the field picker puts a clicked field into the active area (spec 3 §2)', () => {
  it('dimension, measure, time and time-type', () => {
    let d = ok(pickInto(emptyDraft(), 'dimension', province));
    d = ok(pickInto(d, 'dimension', province));
    d = ok(pickInto(d, 'measure', orders));
    expect(d.columnJson.map((c) => [c.columnTitle, c.dimensionType])).toEqual([
      ['省份', 'WEIDU'],
      ['订单数', 'ZHIBIAO'],
    ]);
    d = ok(pickInto(d, 'time', time));
    expect(d.filterTimeJson).toMatchObject({ timeColumn: 3, calcType: 'NORMAL' });
    d = ok(pickInto(d, 'timeType', province));
    expect(d.filterTimeJson).toMatchObject({ timeTypeColumn: 1, calcType: 'SPECIAL' });
  });
  it('filter: a dimension becomes a condition, a measure a threshold that joins the measures', () => {
    const d = ok(pickInto(ok(pickInto(emptyDraft(), 'filter', province)), 'filter', orders));
    expect(d.filterJson.map((f) => [f.cubeColumnId, f.connectTime])).toEqual([
      [1, 'where'],
      [2, 'having'],
    ]);
    expect(d.columnJson.map((c) => c.cubeColumnId)).toEqual([2]);
  });
  it('at most 5 dimensions and 5 measures, with the spec messages', () => {
    let d = emptyDraft();
    for (let i = 10; i < 15; i++) d = ok(pickInto(ok(pickInto(d, 'dimension', field(i, `维${i}`, 'WEIDU'))), 'measure', field(i + 10, `指${i}`, 'ZHIBIAO')));
    expect(pickInto(d, 'dimension', province)).toBe(alertMessages.tooManyDimensions);
    expect(pickInto(d, 'measure', orders)).toBe(alertMessages.tooManyMeasures);
    expect(pickInto(d, 'filter', orders)).toBe(alertMessages.tooManyMeasures);
  });
});
