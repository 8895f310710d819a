import { useState } from 'react';
import { Flex, Form, Segmented, Tag, Typography } from 'antd';
import { ALERT_MAX_DIMENSIONS, ALERT_MAX_MEASURES, alertMessages, type AlertField } from '@shutu/contracts';
import { notifyWarning } from '../../../shared/notify.ts';
import type { FieldOption } from '../api.ts';
import { alm } from '../messages.ts';
import type { AlertDraft } from './draft.ts';

export type PickerArea = 'dimension' | 'measure' | 'filter' | 'time' | 'timeType';
const AREAS: PickerArea[] = ['dimension', 'measure', 'filter', 'time', 'timeType'];

const columnOf = (f: FieldOption, kind: AlertField['dimensionType']): AlertField => ({
  cubeColumnId: f.id,
  columnTitle: f.columnTitle,
  dimensionType: kind,
  viewDataType: f.viewDataType,
  aggregationType: kind === 'ZHIBIAO' ? (f.aggregationType as 'SUM') : null,
});

/** What a click on `f` does in `area`: the draft after it, or the message saying why not. */
export function pickInto(draft: AlertDraft, area: PickerArea, f: FieldOption): AlertDraft | string {
  const has = (kind: AlertField['dimensionType']) => draft.columnJson.some((c) => c.cubeColumnId === f.id && c.dimensionType === kind);
  const count = (kind: AlertField['dimensionType']) => draft.columnJson.filter((c) => c.dimensionType === kind).length;
  switch (area) {
    case 'dimension':
      if (has('WEIDU')) return draft;
      if (count('WEIDU') >= ALERT_MAX_DIMENSIONS) return alertMessages.tooManyDimensions;
      return { ...draft, columnJson: [...draft.columnJson, columnOf(f, 'WEIDU')] };
    case 'measure':
      if (has('ZHIBIAO')) return draft;
      if (count('ZHIBIAO') >= ALERT_MAX_MEASURES) return alertMessages.tooManyMeasures;
      return { ...draft, columnJson: [...draft.columnJson, columnOf(f, 'ZHIBIAO')] };
    case 'filter': {
      // A measure becomes a threshold (having; it joins the measures), anything else a condition (where).
      if (f.dimensionType === 'ZHIBIAO') {
        const withMeasure = pickInto(draft, 'measure', f);
        if (typeof withMeasure === 'string') return withMeasure;
        const threshold = { uniqId: `t${Date.now()}`, cubeColumnId: f.id, columnTitle: f.columnTitle, connectTime: 'having' as const };
        return { ...withMeasure, filterJson: [...withMeasure.filterJson, { ...threshold, conditions: [{ function: 'gt', values: [0] }] }] };
      }
      const condition = { uniqId: `w${Date.now()}`, cubeColumnId: f.id, columnTitle: f.columnTitle, connectTime: 'where' as const };
      const first = f.viewDataType === 'DATETIME' ? { function: 'between' as const, values: [] } : { function: 'eq' as const, values: [''] };
      return { ...draft, filterJson: [...draft.filterJson, { ...condition, conditions: [first] }] };
    }
    case 'time':
      return { ...draft, filterTimeJson: { ...draft.filterTimeJson, timeColumn: f.id } };
    case 'timeType':
      // A time-type column only means something to SPECIAL (NORMAL clears it).
      return { ...draft, filterTimeJson: { ...draft.filterTimeJson, calcType: 'SPECIAL', timeTypeColumn: f.id } };
  }
}

/**
 * The field picker (spec 3 §2, §4): the dataset's fields listed as dimensions and measures; a
 * click puts the field into the ACTIVE area — dimension, measure, filter, time or time-type —
 * which the switch above the list chooses. The sections below show and edit each area.
 */
export function FieldPicker({ draft, onChange, fields }: { draft: AlertDraft; onChange(d: AlertDraft): void; fields: FieldOption[] }) {
  const [area, setArea] = useState<PickerArea>('dimension');
  const pick = (f: FieldOption) => {
    const next = pickInto(draft, area, f);
    if (typeof next === 'string') notifyWarning(next);
    else onChange(next);
  };
  const list = (kind: FieldOption['dimensionType'], color: string) => (
    <Flex wrap gap={6}>
      {fields
        .filter((f) => f.dimensionType === kind)
        .map((f) => (
          <Tag key={f.id} color={color} style={{ cursor: 'pointer', marginInlineEnd: 0 }} onClick={() => pick(f)} data-testid={`alert-pick-${f.columnTitle}`}>
            {f.columnTitle}
          </Tag>
        ))}
    </Flex>
  );
  if (fields.length === 0) return null;
  return (
    <Form.Item label={alm.picker} extra={alm.pickerHint}>
      <Flex vertical gap={8}>
        <Segmented<PickerArea>
          value={area}
          options={AREAS.map((a) => ({ label: alm.areas[a], value: a }))}
          onChange={setArea}
          data-testid="alert-picker-area"
        />
        <Typography.Text type="secondary">{alm.dimensionFields}</Typography.Text>
        {list('WEIDU', 'blue')}
        <Typography.Text type="secondary">{alm.measureFields}</Typography.Text>
        {list('ZHIBIAO', 'green')}
      </Flex>
    </Form.Item>
  );
}
