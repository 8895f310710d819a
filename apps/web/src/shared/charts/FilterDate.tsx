import { useState } from 'react';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FilterValue } from './FilterSelect.tsx';
import { chartMessages } from './messages.ts';

const DATE = 'YYYY-MM-DD';

function toRange(values: readonly FilterValue[] | null | undefined): [Dayjs, Dayjs] | null {
  if (!values || values.length < 2) return null;
  const from = dayjs(String(values[0]), DATE);
  const to = dayjs(String(values[1]), DATE);
  return from.isValid() && to.isValid() ? [from, to] : null;
}

export interface FilterDateProps {
  defaultValue?: readonly FilterValue[] | null;
  onFilterChange?: (values: FilterValue[]) => void;
}

/** 日期筛选: a range; reports [from, to] as yyyy-MM-dd, or [] when cleared. */
export function FilterDate({ defaultValue, onFilterChange }: FilterDateProps) {
  const [value, setValue] = useState<[Dayjs, Dayjs] | null>(() => toRange(defaultValue));
  return (
    <DatePicker.RangePicker
      style={{ width: '100%' }}
      placeholder={[chartMessages.filterDateStart, chartMessages.filterDateEnd]}
      value={value}
      onChange={(dates) => {
        const range = dates && dates[0] && dates[1] ? ([dates[0], dates[1]] as [Dayjs, Dayjs]) : null;
        setValue(range);
        onFilterChange?.(range ? [range[0].format(DATE), range[1].format(DATE)] : []);
      }}
    />
  );
}
