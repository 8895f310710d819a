import { useState } from 'react';
import { Alert, App, Select, Spin } from 'antd';
import type { Chart, DatasetField } from '@shutu/contracts';
import { liveChartInput } from '../LiveChart.tsx';
import { useAutoUnits } from './auto-granularity.ts';
import { useChartFields, useReadableDatasets } from './data.ts';
import { cm } from './messages.ts';
import { DatasetFieldList, SlotList } from './FieldSlots.tsx';
import { DefaultValueSection, FilterSection, LimitSection, SortSection } from './QuerySettings.tsx';
import {
  addField,
  changeDataset,
  configOf,
  emptyConfig,
  hasFieldWork,
  isFilterControl,
  ruleProblems,
  rulesOf,
  withConfig,
  type DataConfig,
  type SlotKey,
} from './rules.ts';
import { Section } from './Section.tsx';

export interface DataTabProps {
  chart: Chart;
  defaultCubeId?: number | null;
  onChange: (chart: Chart) => void;
}

/** 数据: dataset, the field lists the type uses (with its rule as a hint), filter, sort, limit; filter controls: their default value. */
export function DataTab({ chart, defaultCubeId, onChange }: DataTabProps) {
  const { modal } = App.useApp();
  const config = configOf(chart, defaultCubeId);
  const datasets = useReadableDatasets();
  const fields = useChartFields(config?.cubeId);
  const [refusal, setRefusal] = useState<string | null>(null);
  const auto = useAutoUnits(liveChartInput(chart), chart.dataconfig ?? null, fields.data);
  const rules = rulesOf(chart.name);
  const type = chart.name;

  const setConfig = (next: DataConfig) => {
    setRefusal(null);
    onChange(withConfig(chart, next));
  };

  const pickDataset = (cubeId: number) => {
    if (cubeId === config?.cubeId) return;
    const apply = () => {
      setRefusal(null);
      onChange(chart.dataconfig ? changeDataset(chart, cubeId) : withConfig(chart, emptyConfig(cubeId)));
    };
    if (!hasFieldWork(chart)) {
      apply();
      return;
    }
    modal.confirm({ title: cm.datasetChangeTitle, content: cm.datasetChangeConfirm, okText: cm.confirm, cancelText: cm.cancel, onOk: apply });
  };

  const add = (slot: SlotKey, field: DatasetField) => {
    if (!config) return;
    const result = addField(type, config, slot, field);
    if (result.ok) setConfig(result.config);
    else setRefusal(result.reason);
  };

  const problems = ruleProblems(type, config);

  return (
    <div className="ccp-tab" data-testid="ccp-data">
      <Section title={cm.dataset} testId="ccp-dataset">
        <Select
          size="small"
          className="ccp-grow"
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={cm.datasetPlaceholder}
          loading={datasets.isLoading}
          value={config?.cubeId}
          options={(datasets.data ?? []).map((d) => ({ value: d.id, label: d.cubeName, title: `${d.workspaceName} / ${d.cubeName}` }))}
          onChange={pickDataset}
          data-testid="ccp-dataset-select"
          aria-label={cm.dataset}
        />
      </Section>
      {!config ? (
        <Alert type="info" showIcon title={cm.noDataset} />
      ) : (
        <>
          <Alert type="info" showIcon title={rules.hint} className="ccp-hint" data-testid="ccp-rule-hint" />
          {refusal && (
            <Alert type="warning" showIcon closable={{ onClose: () => setRefusal(null) }} title={refusal} className="ccp-hint" data-testid="ccp-refusal" />
          )}
          {problems.map((p) => (
            <Alert key={p} type="error" showIcon title={p} className="ccp-hint" data-testid="ccp-problem" />
          ))}
          <Section title={cm.datasetFields}>
            {fields.isLoading ? (
              <Spin size="small" />
            ) : fields.isError ? (
              <Alert type="error" title={cm.loadFailed} />
            ) : (
              <DatasetFieldList type={type} fields={fields.data ?? []} onAdd={add} />
            )}
          </Section>
          {(['rows', 'columns', 'measures'] as const).map((slot) => {
            const rule = rules.slots[slot];
            if (!rule) return null;
            const autoOf = slot === 'measures' ? undefined : auto[slot];
            return <SlotList key={slot} slot={slot} rule={rule} config={config} fields={fields.data} autoUnits={autoOf} onChange={setConfig} />;
          })}
          {isFilterControl(type) ? (
            <DefaultValueSection chart={withConfig(chart, config)} config={config} onChange={onChange} />
          ) : (
            <>
              <FilterSection config={config} fields={fields.data} onChange={setConfig} />
              <SortSection config={config} fields={fields.data} onChange={setConfig} />
              <LimitSection key={chart.key} config={config} onChange={setConfig} detail={type === 'detail'} />
            </>
          )}
        </>
      )}
    </div>
  );
}
