import { useState } from 'react';
import { Select } from 'antd';
import { chartMessages } from './messages.ts';

/** A filter control's value: a select's values, a date range's yyyy-MM-dd ends. */
export type FilterValue = string | number;

export interface FilterSelectProps {
  options: { label: string; value: FilterValue }[];
  defaultValue?: readonly FilterValue[] | null;
  loading?: boolean;
  onFilterChange?: (values: FilterValue[]) => void;
}

/** 下拉筛选: several of the values; every change reports the chosen values. */
export function FilterSelect({ options, defaultValue, loading, onFilterChange }: FilterSelectProps) {
  const [value, setValue] = useState<FilterValue[]>(() => [...(defaultValue ?? [])]);
  return (
    <Select<FilterValue[]>
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      maxTagCount="responsive"
      style={{ width: '100%' }}
      placeholder={chartMessages.filterSelectPlaceholder}
      loading={loading}
      options={options}
      value={value}
      onChange={(v) => {
        setValue(v);
        onFilterChange?.(v);
      }}
    />
  );
}
