import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { fetchApiList, fetchDictList, manualOptions, sourceOf, useDistinctValues, withSource, type ValueSource as Source } from './pick-list.ts';
import { pm } from './pick-messages.ts';
import type { FilterItem } from './types.ts';

interface Props {
  item: FilterItem;
  disabled?: boolean;
  testId: string;
  onChange: (item: FilterItem) => void;
}

/**
 * 值来源 of a filter item: typed values, or a pick-list — a list the author writes, the field's
 * own values (where the editor can read them), a data API or an enumeration dictionary.
 */
export function ValueSourceControl({ item, disabled, testId, onChange }: Props) {
  const source = sourceOf(item);
  const distinct = useDistinctValues();
  const apis = useQuery({ queryKey: ['filter', 'pick', 'apis'], queryFn: fetchApiList, enabled: source === 'api', retry: false });
  const dicts = useQuery({ queryKey: ['filter', 'pick', 'dicts'], queryFn: fetchDictList, enabled: source === 'dict', retry: false });
  const sources: { value: Source; label: string }[] = [
    { value: 'typed', label: pm.typed },
    { value: 'manual', label: pm.manual },
    ...(distinct ? [{ value: 'distinct' as const, label: pm.distinct }] : []),
    { value: 'api', label: pm.api },
    { value: 'dict', label: pm.dict },
  ];
  return (
    <span className="ft-source" data-testid={testId}>
      <Select<Source>
        className="ft-source-kind"
        size="small"
        disabled={disabled}
        value={source}
        options={sources}
        popupMatchSelectWidth={false}
        onChange={(next) => onChange(withSource(item, next === 'manual' ? 'manual' : next, null, next === 'manual' ? [''] : []))}
        aria-label={pm.source}
        data-testid={`${testId}-kind`}
      />
      {source === 'manual' && (
        <Select<string[]>
          mode="tags"
          size="small"
          className="ft-source-manual"
          disabled={disabled}
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '，']}
          placeholder={pm.manualPlaceholder}
          value={manualOptions(item.options)
            .map((o) => String(o.value))
            .filter((v) => v !== '')}
          onChange={(values) => onChange(withSource(item, 'manual', null, values.length > 0 ? values : ['']))}
          aria-label={pm.manualPlaceholder}
          data-testid={`${testId}-manual`}
        />
      )}
      {source === 'api' && (
        <Select<number>
          size="small"
          className="ft-source-pick"
          showSearch={{ optionFilterProp: 'label' }}
          loading={apis.isLoading}
          disabled={disabled}
          placeholder={pm.apiPlaceholder}
          value={item.enumId === null || item.enumId === undefined ? undefined : Number(item.enumId)}
          options={(apis.data ?? []).map((a) => ({ value: a.id, label: a.apiName }))}
          onChange={(id) => onChange(withSource(item, 'api', id))}
          aria-label={pm.apiPlaceholder}
          data-testid={`${testId}-api`}
        />
      )}
      {source === 'dict' && (
        <Select<string>
          size="small"
          className="ft-source-pick"
          showSearch={{ optionFilterProp: 'label' }}
          loading={dicts.isLoading}
          disabled={disabled}
          placeholder={pm.dictPlaceholder}
          value={item.enumId === null || item.enumId === undefined ? undefined : String(item.enumId)}
          options={(dicts.data ?? []).map((d) => ({ value: d.keyCode, label: d.keyCode }))}
          onChange={(keyCode) => onChange(withSource(item, 'dict', keyCode))}
          aria-label={pm.dictPlaceholder}
          data-testid={`${testId}-dict`}
        />
      )}
    </span>
  );
}
