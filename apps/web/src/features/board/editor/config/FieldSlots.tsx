import { useMemo, useState } from 'react';
import { Button, Empty, Input, Select, Tag, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CalendarOutlined, DeleteOutlined, FieldNumberOutlined, FontSizeOutlined, PlusOutlined } from '@ant-design/icons';
import type { ChartType, DatasetField, TimeUnit } from '@shutu/contracts';
import { TIME_UNITS } from '@shutu/contracts';
import { AGGREGATION_LABELS, cm, TIME_UNIT_LABELS } from './messages.ts';
import {
  aggregationsFor,
  isMeasureField,
  isSelfAggregating,
  moveItem,
  patchItem,
  removeItem,
  rulesOf,
  clearSlot,
  type DataConfig,
  type Dimension,
  type Measure,
  type SlotKey,
  type SlotRule,
} from './rules.ts';
import { Section } from './Section.tsx';

/** The select's value for “no truncation”. */
const NO_GRANULARITY = '';

/** 自动, with the unit the server chose once it has answered: 自动（月）. */
const autoLabel = (unit: TimeUnit | null | undefined) => (unit ? `${cm.granularityAuto}（${TIME_UNIT_LABELS[unit]}）` : cm.granularityAuto);

const TYPE_ICONS = { STRING: <FontSizeOutlined />, NUMBER: <FieldNumberOutlined />, DATETIME: <CalendarOutlined /> } as const;

/** The dataset's fields by role (维度 / 指标), each with a “+” per field list the chart type uses. */
export function DatasetFieldList({
  type,
  fields,
  onAdd,
}: {
  type: ChartType;
  fields: readonly DatasetField[];
  onAdd: (slot: SlotKey, field: DatasetField) => void;
}) {
  const [search, setSearch] = useState('');
  const { slots } = rulesOf(type);
  const shown = useMemo(() => fields.filter((f) => f.columnTitle.toLowerCase().includes(search.trim().toLowerCase())), [fields, search]);
  const groups = [
    { role: cm.roleDimension, list: shown.filter((f) => !isMeasureField(f)) },
    { role: cm.roleMeasure, list: shown.filter(isMeasureField) },
  ];
  const slotKeys = (['rows', 'columns', 'measures'] as const).filter((k) => slots[k]);
  return (
    <div className="ccp-fields" data-testid="ccp-fields">
      <Input.Search size="small" allowClear placeholder={cm.fieldSearch} value={search} onChange={(e) => setSearch(e.target.value)} />
      {fields.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={cm.noFields} />}
      {groups.map(({ role, list }) =>
        list.length === 0 ? null : (
          <div key={role} className="ccp-field-group">
            <Typography.Text type="secondary" className="ccp-field-role">
              {role}
            </Typography.Text>
            {list.map((f) => (
              <div key={f.id} className="ccp-field" data-testid="ccp-field" data-title={f.columnTitle}>
                <span className={isMeasureField(f) ? 'ccp-field-icon measure' : 'ccp-field-icon'}>{TYPE_ICONS[f.viewDataType]}</span>
                <span className="ccp-field-title" title={f.columnTitle}>
                  {f.columnTitle}
                </span>
                {slotKeys.map((k) => (
                  <Tooltip key={k} title={cm.addTo(slots[k]!.label)}>
                    <Button
                      size="small"
                      type="text"
                      className="ccp-field-add"
                      icon={<PlusOutlined />}
                      onClick={() => onAdd(k, f)}
                      data-testid={`ccp-add-${k}`}
                      aria-label={cm.addTo(slots[k]!.label)}
                    >
                      {shortLabel(k, type)}
                    </Button>
                  </Tooltip>
                ))}
              </div>
            ))}
          </div>
        ),
      )}
    </div>
  );
}

/** The one-character label of a “+” button: 维 / 列 / 指 (detail tables: 列). */
function shortLabel(slot: SlotKey, type: ChartType): string {
  if (type === 'detail') return '列';
  return slot === 'rows' ? '维' : slot === 'columns' ? '列' : '指';
}

interface SlotListProps {
  slot: SlotKey;
  rule: SlotRule;
  config: DataConfig;
  fields: readonly DatasetField[] | undefined;
  /** The unit the server chose for each dimension left on 自动 (by index), shown as 自动（月）. */
  autoUnits?: readonly (TimeUnit | null)[];
  onChange: (config: DataConfig) => void;
}

/** One field list of the chart: reorder, remove, rename; granularity for dates, aggregation for measures. */
export function SlotList({ slot, rule, config, fields, autoUnits, onChange }: SlotListProps) {
  const items = slot === 'rows' ? config.rowParamList : slot === 'columns' ? config.columnParamList : config.indexParamList;
  const fieldOf = (id: number) => fields?.find((f) => f.id === id);
  return (
    <Section
      title={
        <>
          {rule.label}
          <Typography.Text type="secondary" className="ccp-count">
            {items.length}/{rule.max}
          </Typography.Text>
        </>
      }
      onClear={items.length > 0 ? () => onChange(clearSlot(config, slot)) : undefined}
      testId={`ccp-slot-${slot}`}
    >
      {items.length === 0 && <div className="ccp-slot-empty">{cm.slotEmpty}</div>}
      {items.map((item, index) => {
        const field = fieldOf(item.fieldId);
        return (
          <div key={`${item.fieldId}-${index}`} className="ccp-item" data-testid={`ccp-item-${slot}`} data-field={item.fieldId}>
            <div className="ccp-item-head">
              <Tag color={rule.measure ? 'green' : 'blue'} className="ccp-item-tag">
                {field?.columnTitle ?? item.fieldId}
              </Tag>
              <span className="ccp-item-tools">
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  disabled={index === 0}
                  aria-label={cm.moveUp}
                  data-testid="ccp-item-up"
                  onClick={() => onChange(moveItem(config, slot, index, -1))}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  disabled={index === items.length - 1}
                  aria-label={cm.moveDown}
                  data-testid="ccp-item-down"
                  onClick={() => onChange(moveItem(config, slot, index, 1))}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={cm.remove}
                  data-testid="ccp-item-remove"
                  onClick={() => onChange(removeItem(config, slot, index))}
                />
              </span>
            </div>
            <div className="ccp-item-body">
              <Input
                size="small"
                placeholder={field?.columnTitle ?? cm.titlePlaceholder}
                value={item.title ?? ''}
                maxLength={100}
                onChange={(e) => onChange(patchItem(config, slot, index, { title: e.target.value }))}
                data-testid="ccp-item-title"
                aria-label={cm.titlePlaceholder}
              />
              {rule.measure ? (
                <MeasureAggregation
                  item={item as Measure}
                  field={field}
                  onChange={(aggregation) => onChange(patchItem(config, slot, index, { aggregation }))}
                />
              ) : (
                field?.viewDataType === 'DATETIME' && (
                  <Select
                    size="small"
                    className="ccp-item-select"
                    // Wider than the other selects: 自动（月） must not be cut.
                    style={{ flexBasis: 116, width: 116 }}
                    data-testid="ccp-item-granularity"
                    aria-label={cm.granularity}
                    value={(item as Dimension).granularity ?? NO_GRANULARITY}
                    options={[
                      { value: NO_GRANULARITY, label: autoLabel(autoUnits?.[index]) },
                      ...TIME_UNITS.map((u) => ({ value: u, label: TIME_UNIT_LABELS[u] })),
                    ]}
                    onChange={(v: TimeUnit | typeof NO_GRANULARITY) =>
                      onChange(patchItem(config, slot, index, { granularity: v === NO_GRANULARITY ? null : v }))
                    }
                  />
                )
              )}
            </div>
          </div>
        );
      })}
    </Section>
  );
}

function MeasureAggregation({ item, field, onChange }: { item: Measure; field: DatasetField | undefined; onChange: (a: Measure['aggregation']) => void }) {
  if (field && isSelfAggregating(field)) {
    return (
      <Typography.Text type="secondary" className="ccp-item-select">
        {cm.selfAggregating}
      </Typography.Text>
    );
  }
  return (
    <Select
      size="small"
      className="ccp-item-select"
      data-testid="ccp-item-aggregation"
      aria-label={cm.aggregation}
      value={item.aggregation ?? field?.aggregationType ?? 'SUM'}
      options={aggregationsFor(field).map((a) => ({ value: a, label: AGGREGATION_LABELS[a] }))}
      onChange={(v) => onChange(v)}
    />
  );
}
