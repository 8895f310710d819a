import { Button, Form, Radio, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { AlertFilter } from '@shutu/contracts';
import type { FieldOption } from '../api.ts';
import { alm } from '../messages.ts';
import { ConditionValue, DATE_FUNCTIONS, textOf, valuesOf } from './ConditionValue.tsx';
import type { AlertDraft } from './draft.ts';

interface Props {
  draft: AlertDraft;
  onChange(draft: AlertDraft): void;
  fields: FieldOption[];
}

/** Where-conditions on text and number fields: no value, one value, or a list (comma separated). */
const WHERE_FUNCTIONS = ['eq', 'in', 'notIn', 'like', 'gt', 'ge', 'lt', 'le', 'isnull', 'notnull'] as const;
type WhereFunction = (typeof WHERE_FUNCTIONS)[number] | (typeof DATE_FUNCTIONS)[number];
const firstCondition = (f: FieldOption | undefined) =>
  f?.viewDataType === 'DATETIME' ? { function: 'between' as const, values: [] } : { function: 'eq' as const, values: [''] };

/**
 * The filter builder's conditions on the dataset's fields (where-filters, before grouping) and the
 * relation that combines the conditions and the measure thresholds (spec 3 §3 "Filter": 且 AND / 或 OR).
 */
export function FiltersSection({ draft, onChange, fields }: Props) {
  const all = draft.filterJson;
  const conditions = all.map((f, i) => [f, i] as const).filter(([f]) => f.connectTime !== 'having');
  const set = (i: number, patch: Partial<AlertFilter>) => onChange({ ...draft, filterJson: all.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const options = fields.filter((f) => f.dimensionType === 'WEIDU').map((f) => ({ label: f.columnTitle, value: f.id }));
  const add = () => {
    const first = fields.find((f) => f.dimensionType === 'WEIDU');
    if (!first) return;
    const filter: AlertFilter = {
      uniqId: `w${Date.now()}`,
      cubeColumnId: first.id,
      columnTitle: first.columnTitle,
      connectTime: 'where',
      conditions: [firstCondition(first)],
    };
    onChange({ ...draft, filterJson: [...all, filter] });
  };
  return (
    <>
      <Form.Item label={alm.conditions}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {conditions.map(([f, i]) => {
            const fn = (f.conditions[0]?.function ?? 'eq') as WhereFunction;
            const isDate = fields.find((x) => x.id === f.cubeColumnId)?.viewDataType === 'DATETIME';
            const functions: readonly WhereFunction[] = isDate ? DATE_FUNCTIONS : WHERE_FUNCTIONS;
            return (
              <Space key={f.uniqId ?? i} data-testid={`alert-condition-${i}`}>
                <Select
                  style={{ width: 160 }}
                  value={f.cubeColumnId}
                  options={options}
                  onChange={(id: number) => {
                    const field = fields.find((x) => x.id === id);
                    set(i, { cubeColumnId: id, columnTitle: field?.columnTitle ?? '', conditions: [firstCondition(field)] });
                  }}
                  data-testid={`alert-condition-field-${i}`}
                />
                <Select
                  style={{ width: 110 }}
                  value={fn}
                  options={functions.map((w) => ({ label: (isDate ? alm.dateFunctions[w] : undefined) ?? alm.whereFunctions[w], value: w }))}
                  onChange={(next: WhereFunction) =>
                    set(i, {
                      conditions: [{ function: next, values: isDate ? (next === fn ? (f.conditions[0]?.values ?? []) : []) : valuesOf(next, textOf(f)) }],
                    })
                  }
                  data-testid={`alert-condition-fn-${i}`}
                />
                <ConditionValue
                  filter={f}
                  isDate={isDate}
                  testId={`alert-condition-value-${i}`}
                  onValues={(values) => set(i, { conditions: [{ function: fn, values }] })}
                />
                <Button icon={<DeleteOutlined />} aria-label={alm.delete} onClick={() => onChange({ ...draft, filterJson: all.filter((_, j) => j !== i) })} />
              </Space>
            );
          })}
          <Button icon={<PlusOutlined />} disabled={options.length === 0} onClick={add} data-testid="alert-add-condition">
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
    </>
  );
}
