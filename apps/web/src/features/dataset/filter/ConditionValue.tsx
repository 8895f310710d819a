import { DatePicker, Input, InputNumber, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { TIME_UNITS, type TimeUnit, type ViewDataType } from '@shutu/contracts';
import { fm } from './messages.ts';
import { isListFunction, needsNoValue } from './tree-ops.ts';
import type { FilterCondition } from './types.ts';

export const UNIT_LABELS: Record<TimeUnit, string> = { YEAR: '年', QUARTER: '季度', MONTH: '月', WEEK: '周', DAY: '天', HOUR: '小时' };
const DATE_FORMAT = 'YYYY-MM-DD';

type Value = FilterCondition['values'][number];
type Patch = Partial<Pick<FilterCondition, 'values' | 'countType' | 'dateType'>>;

interface Props {
  condition: FilterCondition;
  type: ViewDataType | undefined;
  /** The unit a relative condition falls back to (the item's). */
  unit: TimeUnit;
  disabled?: boolean;
  testId: string;
  onChange: (patch: Patch) => void;
}

const toDay = (v: Value | undefined): Dayjs | null => {
  if (v === null || v === undefined || v === '') return null;
  const d = dayjs(String(v));
  return d.isValid() ? d : null;
};
const toNumber = (v: Value | undefined): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** The value input a condition's function and field type call for (nothing for isnull/notnull). */
export function ConditionValue({ condition: c, type, unit, disabled, testId, onChange }: Props) {
  if (needsNoValue(c.function)) return null;
  const setValues = (values: Value[]) => onChange({ values });

  let control;
  if (isListFunction(c.function)) {
    control = (
      <Select<string[]>
        mode="tags"
        className="ft-value-list"
        placeholder={fm.valuesPlaceholder}
        tokenSeparators={[',', '，']}
        open={false}
        suffixIcon={null}
        disabled={disabled}
        value={c.values.filter((v) => v !== null).map(String)}
        onChange={(vs) => setValues(vs)}
        aria-label={fm.valuesPlaceholder}
      />
    );
  } else if (type === 'DATETIME' && c.timeType === 'relative') {
    control = (
      <Space.Compact>
        <Select<'left' | 'right'>
          className="ft-count-type"
          disabled={disabled}
          value={c.countType}
          options={[
            { value: 'left', label: fm.countLeft },
            { value: 'right', label: fm.countRight },
          ]}
          onChange={(countType) => onChange({ countType })}
          aria-label={fm.countLeft}
        />
        <InputNumber<number>
          className="ft-count"
          // Room for five digits wherever the editor sits: in the alert editor's narrower form the count shrank and cut 5000 to 500.
          style={{ width: 90, flex: 'none' }}
          min={0}
          max={100000}
          precision={0}
          disabled={disabled}
          value={toNumber(c.values[0])}
          onChange={(n) => setValues(n === null ? [] : [n])}
          aria-label={fm.valuePlaceholder}
        />
        <Select<TimeUnit>
          className="ft-unit"
          disabled={disabled}
          value={c.dateType ?? unit}
          options={TIME_UNITS.map((u) => ({ value: u, label: UNIT_LABELS[u] }))}
          onChange={(dateType) => onChange({ dateType })}
          aria-label={UNIT_LABELS[unit]}
        />
      </Space.Compact>
    );
  } else if (type === 'DATETIME' && c.function === 'between') {
    control = (
      <DatePicker.RangePicker
        className="ft-value-range"
        disabled={disabled}
        placeholder={[fm.rangeStart, fm.rangeEnd]}
        value={[toDay(c.values[0]), toDay(c.values[1])]}
        allowEmpty={[true, true]}
        onChange={(range) => setValues(range ? [range[0]?.format(DATE_FORMAT) ?? null, range[1]?.format(DATE_FORMAT) ?? null] : [])}
      />
    );
  } else if (type === 'DATETIME') {
    control = (
      <DatePicker
        className="ft-value-date"
        disabled={disabled}
        placeholder={fm.datePlaceholder}
        value={toDay(c.values[0])}
        onChange={(d: Dayjs | null) => setValues(d ? [d.format(DATE_FORMAT)] : [])}
      />
    );
  } else if (type === 'NUMBER') {
    control = (
      <InputNumber<number>
        className="ft-value-number"
        disabled={disabled}
        placeholder={fm.valuePlaceholder}
        value={toNumber(c.values[0])}
        onChange={(n) => setValues(n === null ? [] : [n])}
        aria-label={fm.valuePlaceholder}
      />
    );
  } else {
    control = (
      <Input
        className="ft-value-text"
        disabled={disabled}
        placeholder={fm.valuePlaceholder}
        value={c.values[0] === null || c.values[0] === undefined ? '' : String(c.values[0])}
        onChange={(e) => setValues(e.target.value === '' ? [] : [e.target.value])}
        aria-label={fm.valuePlaceholder}
      />
    );
  }
  return (
    <span className="ft-value" data-testid={testId}>
      {control}
    </span>
  );
}
