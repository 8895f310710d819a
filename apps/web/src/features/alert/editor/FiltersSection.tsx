import { useRef } from 'react';
import { Button, Form, Radio, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { AlertFilter } from '@shutu/contracts';
import { FilterItemEditor } from '../../dataset/filter/FilterItemEditor.tsx';
import { DistinctValuesContext } from '../../dataset/filter/pick-list.ts';
import { boardDistinctValues } from '../../board/editor/config/filter-values.ts';
import type { DataConfig } from '../../board/editor/config/rules.ts';
import { addItem, moveItem, newItem, type ItemRef } from '../../dataset/filter/tree-ops.ts';
import type { FilterField, FilterItem, FilterTree } from '../../dataset/filter/types.ts';
import '../../dataset/filter/filter.css';
import type { FieldOption } from '../api.ts';
import { alm } from '../messages.ts';
import type { AlertDraft } from './draft.ts';

interface Props {
  draft: AlertDraft;
  onChange(draft: AlertDraft): void;
  fields: FieldOption[];
}

/**
 * The where-items as one nested group of the dataset filter's tree: FilterItemEditor (the dataset
 * editor's item: functions by type, several conditions joined by the item's 且/或, relative time on
 * dates, the pick-list's value sources) edits them; a nested group offers no further nesting,
 * which the alert's flat filterJson could not keep.
 */
const GROUP = 0;
const toTree = (items: AlertFilter[], relation: 'AND' | 'OR'): FilterTree => ({
  relation: 'AND',
  conditions: [],
  filters: [
    {
      relation,
      conditions: items.map((f) => ({
        ...f,
        column: f.columnTitle ?? null,
        connectType: f.connectType === 'or' || f.connectType === 'OR' ? 'or' : 'and',
        dateType: f.dateType ?? null,
        conditions: f.conditions.map((c) => ({
          function: c.function ?? 'eq',
          values: c.values ?? [],
          timeType: c.timeType ?? 'absolute',
          countType: c.countType ?? 'left',
          dateType: c.dateType ?? null,
          useParam: false,
          paramKey: null,
        })),
      })) as FilterItem[],
    },
  ],
});
const fromTree = (tree: FilterTree, fields: FieldOption[]): AlertFilter[] =>
  (tree.filters[GROUP]?.conditions ?? []).map((item) => {
    const id = Number(item.cubeColumnId);
    return {
      uniqId: item.uniqId,
      cubeColumnId: id,
      columnTitle: fields.find((f) => f.id === id)?.columnTitle ?? item.column ?? '',
      connectTime: 'where',
      connectType: item.connectType,
      dateType: item.dateType,
      enumSource: item.enumSource as AlertFilter['enumSource'],
      enumId: item.enumId,
      options: item.options,
      conditions: item.conditions.map((c) => ({
        function: c.function,
        values: c.values,
        timeType: c.timeType,
        countType: c.countType,
        dateType: c.dateType,
      })),
    };
  });

/**
 * The filter builder's conditions on the dataset's dimensions (where-filters, before grouping) and
 * the relation that combines the conditions and the measure thresholds (spec 3 §3 "Filter").
 */
export function FiltersSection({ draft, onChange, fields }: Props) {
  const thresholds = draft.filterJson.filter((f) => f.connectTime === 'having');
  const where = draft.filterJson.filter((f) => f.connectTime !== 'having');
  const tree = toTree(where, draft.filterRelationJson);
  const dims: FilterField[] = fields.filter((f) => f.dimensionType === 'WEIDU').map((f) => ({ id: f.id, title: f.columnTitle, viewDataType: f.viewDataType }));
  const update = (op: (t: FilterTree) => FilterTree) => {
    const next = op(tree);
    if (next !== tree) onChange({ ...draft, filterJson: [...fromTree(next, fields), ...thresholds] });
  };
  const dragging = useRef<ItemRef | null>(null);
  // 字段的值 (enumSource 1): the field's values read like a chart's, with the editor's own rights.
  const distinct = draft.cubeDataId ? boardDistinctValues({ cubeId: draft.cubeDataId } as DataConfig) : null;
  return (
    <DistinctValuesContext.Provider value={distinct}>
      <Form.Item label={alm.conditions}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {where.map((f, i) => (
            <FilterItemEditor
              key={f.uniqId ?? i}
              item={tree.filters[GROUP]!.conditions[i]!}
              at={{ node: GROUP, index: i }}
              flatIndex={i}
              fields={dims}
              prefix="alert-condition"
              update={update}
              onDragStart={(at) => {
                dragging.current = at;
              }}
              onDragEnd={() => {
                dragging.current = null;
              }}
              onDropOn={(at, e) => {
                e.preventDefault();
                const from = dragging.current;
                dragging.current = null;
                if (from) update((t) => moveItem(t, from, GROUP, at.index));
              }}
            />
          ))}
          <Button
            icon={<PlusOutlined />}
            disabled={dims.length === 0}
            onClick={() => update((t) => addItem(t, GROUP, newItem(dims[0])))}
            data-testid="alert-add-condition"
          >
            {alm.addCondition}
          </Button>
        </Space>
      </Form.Item>
      <Form.Item label={alm.relation} extra={alm.relationHint}>
        <Radio.Group
          value={draft.filterRelationJson}
          options={[
            { label: alm.relationAnd, value: 'AND' },
            { label: alm.relationOr, value: 'OR' },
          ]}
          onChange={(e) => onChange({ ...draft, filterRelationJson: e.target.value as 'AND' | 'OR' })}
          data-testid="alert-relation"
        />
      </Form.Item>
    </DistinctValuesContext.Provider>
  );
}
