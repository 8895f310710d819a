import { useMemo, useState } from 'react';
import { App, Button, Select, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { AggregationType, FieldId, ViewDataType } from '@shutu/contracts';
import type { DimensionType, EditorField } from './model-state.ts';
import { AGGREGATIONS, aggregationAllowed, VIEW_TYPES } from './model-state.ts';
import { applyBatch, formatLabel, hasSettings, isBuiltInNumberFormat, NUMBER_FORMATS, TIME_FORMATS, type BatchSettings } from './batch-ops.ts';
import { em, fmt } from './messages.ts';

interface Props {
  fields: EditorField[];
  onChange: (update: (fields: EditorField[]) => EditorField[]) => void;
}

const keyOf = (id: FieldId) => String(id);

/**
 * 批量配置: every field in a table with checkbox selection, and a bar that applies data
 * type, number format (AUTO and built-ins only), time format, default aggregation,
 * hidden/shown and dimension/indicator to the selected fields at once.
 */
export function BatchConfigTab({ fields, onChange }: Props) {
  const { message } = App.useApp();
  const [selected, setSelected] = useState<string[]>([]);
  const [settings, setSettings] = useState<BatchSettings>({});
  const rows = useMemo(
    () => [...fields].sort((a, b) => (a.dimensionType === b.dimensionType ? a.sortNum - b.sortNum : a.dimensionType === 'WEIDU' ? -1 : 1)),
    [fields],
  );
  // Selection of fields that no longer exist is dropped.
  const present = new Set(fields.map((f) => keyOf(f.id)));
  const chosen = selected.filter((k) => present.has(k));
  const set = <K extends keyof BatchSettings>(key: K, value: BatchSettings[K] | undefined) => setSettings((s) => ({ ...s, [key]: value }));

  const apply = () => {
    if (chosen.length === 0) return void message.warning(em.batchNothingSelected);
    if (!hasSettings(settings)) return void message.warning(em.batchNothingToApply);
    const ids = fields.filter((f) => chosen.includes(keyOf(f.id))).map((f) => f.id);
    const { skippedAggregation } = applyBatch(fields, ids, settings);
    const current = settings;
    onChange((fs) => applyBatch(fs, ids, current).fields);
    setSettings({});
    if (skippedAggregation > 0) void message.warning(fmt(em.batchAggSkipped, { count: skippedAggregation }));
    else void message.success(fmt(em.batchApplied, { count: ids.length }));
  };

  const columns: ColumnsType<EditorField> = [
    {
      title: em.fieldTitle,
      dataIndex: 'columnTitle',
      ellipsis: true,
      render: (_, f) => (
        <span data-testid={`batch-title-${f.columnTitle}`}>
          {f.columnAttr === 'VIRTUAL' ? 'ƒ ' : ''}
          {f.columnTitle}
        </span>
      ),
    },
    { title: em.formulaOrColumn, key: 'source', ellipsis: true, render: (_, f) => (f.columnAttr === 'VIRTUAL' ? f.columnFormula : f.columnName) },
    { title: em.tableOf, key: 'table', ellipsis: true, render: (_, f) => f.tableName ?? em.wholeView },
    { title: em.dataType, key: 'type', width: 100, render: (_, f) => em[f.viewDataType] },
    {
      title: em.format,
      key: 'format',
      ellipsis: true,
      render: (_, f) => {
        const label = formatLabel(f);
        if (label === null) return '-';
        const custom = f.viewDataType === 'NUMBER' && !isBuiltInNumberFormat(f.numberDataFormat);
        return custom ? (
          <span>
            <Tag>{em.customFormat}</Tag>
            {label}
          </span>
        ) : (
          label
        );
      },
    },
    { title: em.aggregation, key: 'agg', width: 100, render: (_, f) => (aggregationAllowed(f) ? em[f.aggregationType] : '-') },
    { title: em.hidden, key: 'hidden', width: 70, render: (_, f) => (f.hiddenStatus ? em.yes : em.no) },
    { title: em.fieldKind, key: 'kind', width: 100, render: (_, f) => (f.dimensionType === 'WEIDU' ? em.dimension : em.indicator) },
  ];

  const noChange = { value: '', label: em.batchNoChange };
  const pick = <T extends string>(value: T | undefined): T | '' => value ?? '';
  return (
    <div className="ds-batch" data-testid="ds-batch">
      <div className="ds-batch-bar">
        <span className="ds-batch-count" data-testid="batch-count">
          {fmt(em.selectedCount, { count: chosen.length })}
        </span>
        <BarSelect
          label={em.dataType}
          testId="batch-type"
          value={pick(settings.viewDataType)}
          options={[noChange, ...VIEW_TYPES.map((t) => ({ value: t, label: em[t] }))]}
          onChange={(v) => set('viewDataType', (v || undefined) as ViewDataType | undefined)}
        />
        <BarSelect
          label={em.numberFormat}
          testId="batch-number-format"
          value={pick(settings.numberDataFormat)}
          options={[noChange, ...NUMBER_FORMATS]}
          onChange={(v) => set('numberDataFormat', v || undefined)}
        />
        <BarSelect
          label={em.timeFormat}
          testId="batch-time-format"
          value={pick(settings.timeDataFormat)}
          options={[noChange, ...TIME_FORMATS]}
          onChange={(v) => set('timeDataFormat', v || undefined)}
        />
        <BarSelect
          label={em.aggregation}
          testId="batch-aggregation"
          value={pick(settings.aggregationType)}
          options={[noChange, ...AGGREGATIONS.map((a) => ({ value: a, label: em[a] }))]}
          onChange={(v) => set('aggregationType', (v || undefined) as AggregationType | undefined)}
        />
        <BarSelect
          label={em.hiddenState}
          testId="batch-hidden"
          value={settings.hiddenStatus === undefined ? '' : String(settings.hiddenStatus)}
          options={[noChange, { value: '0', label: em.shown }, { value: '1', label: em.hide }]}
          onChange={(v) => set('hiddenStatus', v === '' ? undefined : v === '1' ? 1 : 0)}
        />
        <BarSelect
          label={em.fieldKind}
          testId="batch-kind"
          value={pick(settings.dimensionType)}
          options={[noChange, { value: 'WEIDU', label: em.dimension }, { value: 'ZHIBIAO', label: em.indicator }]}
          onChange={(v) => set('dimensionType', (v || undefined) as DimensionType | undefined)}
        />
        <Button type="primary" size="small" onClick={apply} data-testid="batch-apply">
          {em.applySelected}
        </Button>
      </div>
      <Table<EditorField>
        size="small"
        rowKey={(f) => keyOf(f.id)}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ y: 420 }}
        rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => setSelected(keys.map(String)) }}
      />
    </div>
  );
}

function BarSelect({
  label,
  testId,
  value,
  options,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <label className="ds-batch-item">
      <span>{label}</span>
      <Select size="small" aria-label={label} value={value} options={[...options]} onChange={onChange} popupMatchSelectWidth={false} data-testid={testId} />
    </label>
  );
}
