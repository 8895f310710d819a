import { Button, Form, InputNumber, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { ALERT_MAX_DIMENSIONS, ALERT_MAX_MEASURES, type AlertFilter } from '@shutu/contracts';
import { fetchCubes, fetchFields, type FieldOption } from '../api.ts';
import { alm } from '../messages.ts';
import { withDataset, type AlertDraft } from './draft.ts';
import { FieldPicker } from './FieldPicker.tsx';

interface Props {
  draft: AlertDraft;
  onChange(draft: AlertDraft): void;
  /** The dataset's fields, once loaded (the time section picks from them too). */
  fields: FieldOption[];
}

const THRESHOLD_FUNCTIONS = ['gt', 'ge', 'lt', 'le', 'eq'] as const;

/** Dataset (grouped by category, with its source), dimensions, measures and the measure thresholds (having-filters). */
export function FieldsSection({ draft, onChange, fields }: Props) {
  const cubes = useQuery({ queryKey: ['alert', 'cubes'], queryFn: fetchCubes });
  const groups = new Map<string, { label: string; value: number }[]>();
  for (const c of cubes.data?.records ?? []) {
    const list = groups.get(c.workspaceName) ?? [];
    list.push({ label: `${c.cubeName}（${c.dsName}）`, value: c.id });
    groups.set(c.workspaceName, list);
  }
  const byKind = (kind: FieldOption['dimensionType']) => fields.filter((f) => f.dimensionType === kind).map((f) => ({ label: f.columnTitle, value: f.id }));
  const chosen = (kind: FieldOption['dimensionType']) => draft.columnJson.filter((c) => c.dimensionType === kind).map((c) => c.cubeColumnId);
  const setKind = (kind: FieldOption['dimensionType'], ids: number[]) => {
    const others = draft.columnJson.filter((c) => c.dimensionType !== kind);
    const picked = ids.map((id) => {
      const f = fields.find((x) => x.id === id)!;
      return {
        cubeColumnId: id,
        columnTitle: f.columnTitle,
        dimensionType: kind,
        viewDataType: f.viewDataType,
        aggregationType: kind === 'ZHIBIAO' ? (f.aggregationType as 'SUM') : null,
      };
    });
    onChange({ ...draft, columnJson: [...others, ...picked] });
  };
  // Thresholds are the having-filters; the where-filters are FiltersSection's. Indexes are into filterJson.
  const all = draft.filterJson;
  const thresholds = all.map((t, i) => [t, i] as const).filter(([t]) => t.connectTime === 'having');
  const setThreshold = (i: number, patch: Partial<AlertFilter>) => onChange({ ...draft, filterJson: all.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  const measures = draft.columnJson.filter((c) => c.dimensionType === 'ZHIBIAO');

  return (
    <>
      <Form.Item label={alm.dataset} required>
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={alm.pickDataset}
          value={draft.cubeDataId ?? undefined}
          options={[...groups].map(([label, options]) => ({ label, options }))}
          onChange={(id: number) => onChange(withDataset(draft, id))}
          data-testid="alert-dataset"
        />
      </Form.Item>
      <FieldPicker draft={draft} onChange={onChange} fields={fields} />
      <Form.Item label={alm.dimensions}>
        <Select
          mode="multiple"
          maxCount={ALERT_MAX_DIMENSIONS}
          value={chosen('WEIDU')}
          options={byKind('WEIDU')}
          onChange={(ids: number[]) => setKind('WEIDU', ids)}
          data-testid="alert-dimensions"
        />
      </Form.Item>
      <Form.Item label={alm.measures} required>
        <Select
          mode="multiple"
          maxCount={ALERT_MAX_MEASURES}
          value={chosen('ZHIBIAO')}
          options={byKind('ZHIBIAO')}
          onChange={(ids: number[]) => setKind('ZHIBIAO', ids)}
          data-testid="alert-measures"
        />
      </Form.Item>
      <Form.Item label={alm.thresholds}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {thresholds.map(([t, i]) => (
            <Space key={t.uniqId ?? i}>
              <Select
                style={{ width: 160 }}
                value={t.cubeColumnId}
                options={measures.map((m) => ({ label: m.columnTitle, value: m.cubeColumnId }))}
                onChange={(id: number) => setThreshold(i, { cubeColumnId: id })}
              />
              <Select
                style={{ width: 110 }}
                value={t.conditions[0]?.function ?? 'gt'}
                options={THRESHOLD_FUNCTIONS.map((fn) => ({ label: alm.functions[fn], value: fn }))}
                onChange={(fn) => setThreshold(i, { conditions: [{ ...t.conditions[0], function: fn }] })}
              />
              <InputNumber
                value={Number(t.conditions[0]?.values?.[0] ?? 0)}
                onChange={(v) => setThreshold(i, { conditions: [{ ...t.conditions[0], values: [v ?? 0] }] })}
                data-testid={`alert-threshold-value-${i}`}
              />
              <Button icon={<DeleteOutlined />} onClick={() => onChange({ ...draft, filterJson: all.filter((_, j) => j !== i) })} />
            </Space>
          ))}
          <Button
            icon={<PlusOutlined />}
            disabled={measures.length === 0}
            onClick={() =>
              onChange({
                ...draft,
                filterJson: [
                  ...all,
                  { uniqId: `t${Date.now()}`, cubeColumnId: measures[0]!.cubeColumnId, connectTime: 'having', conditions: [{ function: 'gt', values: [0] }] },
                ],
              })
            }
            data-testid="alert-add-threshold"
          >
            {alm.addThreshold}
          </Button>
        </Space>
      </Form.Item>
    </>
  );
}

export const useAlertFields = (cubeId: number | null) =>
  useQuery({ queryKey: ['alert', 'fields', cubeId], queryFn: () => fetchFields(cubeId!), enabled: cubeId !== null }).data ?? [];
