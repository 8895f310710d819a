import { DatePicker, Input } from 'antd';
import dayjs from 'dayjs';
import type { AlertFilter } from '@shutu/contracts';
import { alm } from '../messages.ts';

/** Functions of a condition on a date field; values are days (YYYY-MM-DD), `between` includes both. */
export const DATE_FUNCTIONS = ['between', 'ge', 'le', 'isnull', 'notnull'] as const;
const DAY = 'YYYY-MM-DD';
const NO_VALUE: readonly string[] = ['isnull', 'notnull'];
const LIST: readonly string[] = ['in', 'notIn'];

export const valuesOf = (fn: string, text: string): (string | number)[] => {
  if (NO_VALUE.includes(fn)) return [];
  if (LIST.includes(fn))
    return text
      .split(/[,，]/)
      .map((v) => v.trim())
      .filter((v) => v !== '');
  return [text];
};
export const textOf = (f: AlertFilter) => (f.conditions[0]?.values ?? []).join('，');

/** The value editor of one condition: nothing, a text (a comma list for 属于/不属于), a day or a range of days. */
export function ConditionValue({
  filter,
  isDate,
  testId,
  onValues,
}: {
  filter: AlertFilter;
  isDate: boolean;
  testId: string;
  onValues(values: (string | number)[]): void;
}) {
  const fn = filter.conditions[0]?.function ?? 'eq';
  const values = filter.conditions[0]?.values ?? [];
  if (NO_VALUE.includes(fn)) return null;
  if (isDate && fn === 'between') {
    const range = values.length === 2 ? ([dayjs(String(values[0])), dayjs(String(values[1]))] as const) : null;
    return (
      <div data-testid={testId}>
        <DatePicker.RangePicker
          value={range ? [range[0], range[1]] : null}
          onChange={(r) => onValues(r?.[0] && r[1] ? [r[0].format(DAY), r[1].format(DAY)] : [])}
        />
      </div>
    );
  }
  if (isDate) {
    return (
      <div data-testid={testId}>
        <DatePicker value={values[0] ? dayjs(String(values[0])) : null} onChange={(d) => onValues(d ? [d.format(DAY)] : [])} />
      </div>
    );
  }
  return (
    <Input
      style={{ width: 220 }}
      value={textOf(filter)}
      placeholder={LIST.includes(fn) ? alm.listPlaceholder : alm.valuePlaceholder}
      onChange={(e) => onValues(valuesOf(fn, e.target.value))}
      data-testid={testId}
    />
  );
}
