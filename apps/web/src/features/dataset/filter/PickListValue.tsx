import { useQuery } from '@tanstack/react-query';
import { Alert, Select, TreeSelect } from 'antd';
import { errorText } from '../../../shared/notify.ts';
import { fetchApiOptions, fetchDictOptions, flatOptions, manualOptions, sourceOf, useDistinctValues, type PickOption } from './pick-list.ts';
import { pm } from './pick-messages.ts';
import type { FilterCondition, FilterItem } from './types.ts';

type Value = FilterCondition['values'][number];

/** Trees with more entries than this render virtually. */
const VIRTUAL_FROM = 300;

interface Props {
  item: FilterItem;
  /** in / notIn: several values. */
  multiple: boolean;
  values: readonly Value[];
  disabled?: boolean;
  testId: string;
  onChange: (values: Value[]) => void;
}

interface TreeOption {
  value: string;
  title: string;
  children?: TreeOption[];
}
const toTree = (options: readonly PickOption[]): TreeOption[] =>
  options.map((o) => ({ value: String(o.value), title: o.label, ...(o.children?.length ? { children: toTree(o.children) } : {}) }));

/** Whether an item offers its values from a pick-list (and a value input should use PickListValue). */
export const hasPickList = (item: FilterItem) => {
  const source = sourceOf(item);
  return source === 'manual' || source === 'distinct' || ((source === 'api' || source === 'dict') && item.enumId !== null && item.enumId !== undefined);
};

/** The value input of a condition whose item has a pick-list: searchable, a tree for a dictionary with children. */
export function PickListValue({ item, multiple, values, disabled, testId, onChange }: Props) {
  const source = sourceOf(item);
  const distinct = useDistinctValues();
  const options = useQuery({
    queryKey: ['filter', 'pick', source, item.enumId ?? null, source === 'distinct' ? String(item.cubeColumnId) : null],
    queryFn: (): Promise<PickOption[]> => {
      if (source === 'api') return fetchApiOptions(item.enumId!);
      if (source === 'dict') return fetchDictOptions(String(item.enumId));
      if (source === 'distinct' && distinct) return distinct(item.cubeColumnId);
      return Promise.resolve(manualOptions(item.options).filter((o) => o.value !== ''));
    },
    retry: false,
    staleTime: 60_000,
  });
  if (options.isError) return <Alert type="warning" showIcon title={`${pm.loadFailed}${errorText(options.error)}`} data-testid={testId} />;
  const picked = values.filter((v) => v !== null).map(String);
  const list = options.data ?? [];
  if (list.some((o) => o.children?.length)) {
    return (
      <TreeSelect<string | string[]>
        className="ft-value-pick"
        data-testid={testId}
        disabled={disabled}
        loading={options.isLoading}
        placeholder={pm.pickPlaceholder}
        treeData={toTree(list)}
        multiple={multiple}
        showSearch
        treeNodeFilterProp="title"
        treeDefaultExpandAll
        // a short tree renders whole (searching it then highlights in place); long ones stay virtual
        virtual={flatOptions(list).length > VIRTUAL_FROM}
        allowClear
        value={multiple ? picked : picked[0]}
        onChange={(v) => onChange(v === undefined || v === null ? [] : Array.isArray(v) ? v : [v])}
        aria-label={pm.pickPlaceholder}
      />
    );
  }
  return (
    <Select<string | string[]>
      className="ft-value-pick"
      data-testid={testId}
      // Closed until the list is there: a dictionary with children then becomes a tree select,
      // and a dropdown opened meanwhile would vanish with the plain select it belonged to.
      disabled={disabled || options.isLoading}
      loading={options.isLoading}
      placeholder={pm.pickPlaceholder}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      options={list.map((o) => ({ value: String(o.value), label: o.label }))}
      value={multiple ? picked : picked[0]}
      onChange={(v) => onChange(v === undefined || v === null ? [] : Array.isArray(v) ? v : [v])}
      aria-label={pm.pickPlaceholder}
    />
  );
}
