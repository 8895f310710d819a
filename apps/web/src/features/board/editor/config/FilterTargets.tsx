import { Alert, Checkbox, Select, Switch, Tag, Tooltip, Typography } from 'antd';
import type { Chart } from '@shutu/contracts';
import { CHART_TYPE_LABELS } from '@shutu/contracts';
import { autoLinkOn, autoTargets } from '@shutu/contracts/board-linkage';
import { fieldTitle, useChartFields, useReadableDatasets } from './data.ts';
import { cm } from './messages.ts';
import { chartName, isFilterControl, withExt } from './rules.ts';
import { Row, Section } from './Section.tsx';

export interface FilterTargetsProps {
  /** The filter control being configured. */
  chart: Chart;
  charts: readonly Chart[];
  onChange: (chart: Chart) => void;
}

/**
 * 应用到图表 of a filter control: the filter applies board-wide by default (the switch), to the
 * charts listed here, each with a checkbox (the per-chart opt-out, stored as
 * ext.autoLinkExclude); charts of another dataset join once a field of that dataset is mapped.
 * A chart that links to this filter by hand is governed by its own 联动 tab instead.
 */
export function FilterTargets({ chart, charts, onChange }: FilterTargetsProps) {
  const on = autoLinkOn(chart, charts);
  const field = chart.dataconfig?.rowParamList[0];
  const targets = autoTargets(chart, charts);
  const excluded = new Set(chart.ext.autoLinkExclude ?? []);
  const setExcluded = (key: string, out: boolean) => {
    const next = new Set(excluded);
    if (out) next.add(key);
    else next.delete(key);
    onChange(withExt(chart, { autoLinkExclude: next.size > 0 ? [...next] : null }));
  };
  const otherCubes = [
    ...new Set(
      charts.filter((c) => !isFilterControl(c.name) && c.dataconfig && c.dataconfig.cubeId !== chart.dataconfig?.cubeId).map((c) => c.dataconfig!.cubeId),
    ),
  ];

  return (
    <Section title={cm.targets} testId="ccp-filter-targets">
      <Row label={cm.targetsAuto}>
        <Switch size="small" checked={on} onChange={(v) => onChange(withExt(chart, { autoLink: v }))} data-testid="ccp-targets-auto" />
      </Row>
      <Typography.Paragraph type="secondary" className="ccp-small">
        {on ? cm.targetsHint : cm.targetsOffHint}
      </Typography.Paragraph>
      {on && !field && <Alert type="info" showIcon title={cm.targetsNeedField} />}
      {on && field && (
        <>
          {targets.length === 0 && <div className="ccp-muted ccp-small">{cm.targetsEmpty}</div>}
          {targets.map((t) => (
            <div key={t.chart.key} className="ccp-target" data-testid="ccp-target" data-chart={t.chart.key}>
              <Checkbox
                checked={!t.excluded && !t.handLinked}
                disabled={t.handLinked}
                onChange={(e) => setExcluded(t.chart.key, !e.target.checked)}
                data-testid="ccp-target-check"
              >
                <Tag>{CHART_TYPE_LABELS[t.chart.name]}</Tag>
                {chartName(t.chart)}
              </Checkbox>
              {t.handLinked && (
                <Tooltip title={cm.targetHandLinkedHint}>
                  <Tag color="orange">{cm.targetHandLinked}</Tag>
                </Tooltip>
              )}
            </div>
          ))}
          {otherCubes.length > 0 && (
            <div className="ccp-target-maps" data-testid="ccp-target-maps">
              <Typography.Text type="secondary" className="ccp-small">
                {cm.targetsMapHint}
              </Typography.Text>
              {otherCubes.map((cubeId) => (
                <MappedField key={cubeId} filter={chart} cubeId={cubeId} onChange={onChange} />
              ))}
            </div>
          )}
        </>
      )}
    </Section>
  );
}

/** The field of another dataset the filter's values filter (ext.autoLinkFields); the field of the same title is offered first. */
function MappedField({ filter, cubeId, onChange }: { filter: Chart; cubeId: number; onChange: (chart: Chart) => void }) {
  const datasets = useReadableDatasets();
  const fields = useChartFields(cubeId);
  const ownFields = useChartFields(filter.dataconfig?.cubeId);
  const dim = filter.dataconfig?.rowParamList[0];
  const ownTitle = dim ? (dim.title ?? (ownFields.data ? fieldTitle(ownFields.data, dim.fieldId) : null)) : null;
  const mapped = filter.ext.autoLinkFields ?? {};
  const name = datasets.data?.find((d) => d.id === cubeId)?.cubeName ?? String(cubeId);
  const options = (fields.data ?? [])
    .map((f) => ({ value: f.id, label: f.columnTitle === ownTitle ? cm.targetSameName(f.columnTitle) : f.columnTitle, same: f.columnTitle === ownTitle }))
    .sort((a, b) => Number(b.same) - Number(a.same));
  const setField = (fieldId: number | null) => {
    const next: Record<string, number> = { ...mapped };
    if (fieldId) next[String(cubeId)] = fieldId;
    else delete next[String(cubeId)];
    onChange(withExt(filter, { autoLinkFields: Object.keys(next).length > 0 ? next : null }));
  };
  return (
    <Row label={<Typography.Text ellipsis={{ tooltip: name }}>{name}</Typography.Text>}>
      <Select
        size="small"
        className="ccp-grow"
        allowClear
        placeholder={cm.targetsMapNone}
        value={mapped[String(cubeId)] ?? null}
        options={options.map(({ value, label }) => ({ value, label }))}
        showSearch={{ optionFilterProp: 'label' }}
        loading={fields.isLoading}
        onChange={(v) => setField(v ?? null)}
        data-testid="ccp-target-map"
        data-cube={cubeId}
      />
    </Row>
  );
}
