import { useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Input, Modal, Segmented, Select, Space } from 'antd';
import { DeleteOutlined, FilterOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { Chart, ChartDataConfig, DatasetField } from '@shutu/contracts';
import { DETAIL_PAGE_SIZES } from '@shutu/contracts';
import { useChartData } from '../../../../shared/charts/useChartData.ts';
import { FilterTreeEditor } from '../../../dataset/filter/FilterTreeEditor.tsx';
import { itemCount, normaliseTree, validateTree } from '../../../dataset/filter/tree-ops.ts';
import { EMPTY_TREE, type FilterField, type FilterTree } from '../../../dataset/filter/types.ts';
import { DistinctValuesContext, type DistinctValues } from '../../../dataset/filter/pick-list.ts';
import { boardDistinctValues } from './filter-values.ts';
import { fieldTitle } from './data.ts';
import { AGGREGATION_LABELS, cm } from './messages.ts';
import { parseLimit, sortChoices, sortValue, type DataConfig } from './rules.ts';
import { Row, Section } from './Section.tsx';

interface ConfigProps {
  config: DataConfig;
  fields: readonly DatasetField[] | undefined;
  onChange: (config: DataConfig) => void;
}

const filterFields = (fields: readonly DatasetField[] | undefined): FilterField[] =>
  (fields ?? []).map((f) => ({ id: f.id, title: f.columnTitle, viewDataType: f.viewDataType }));

/** 过滤: a summary and a dialog with the shared filter tree editor over the dataset's fields (no global parameters). */
export function FilterSection({ config, fields, onChange }: ConfigProps) {
  const [open, setOpen] = useState(false);
  const count = config.filter ? itemCount(config.filter) : 0;
  return (
    <Section title={cm.filter} onClear={count > 0 ? () => onChange({ ...config, filter: null }) : undefined} testId="ccp-filter">
      <div className="ccp-inline">
        <span data-testid="ccp-filter-summary" className={count > 0 ? 'ccp-filter-on' : 'ccp-muted'}>
          {count > 0 ? cm.filterSet(count) : cm.filterNone}
        </span>
        <Button size="small" icon={<FilterOutlined />} onClick={() => setOpen(true)} data-testid="ccp-filter-edit">
          {cm.filterEdit}
        </Button>
      </div>
      <Modal open={open} title={cm.filterTitle} width={800} destroyOnHidden footer={null} onCancel={() => setOpen(false)}>
        {open && (
          <FilterDialogBody
            value={config.filter ?? null}
            distinct={config.cubeId ? boardDistinctValues(config) : null}
            fields={filterFields(fields)}
            onCancel={() => setOpen(false)}
            onOk={(tree) => {
              onChange({ ...config, filter: tree });
              setOpen(false);
            }}
          />
        )}
      </Modal>
    </Section>
  );
}

function FilterDialogBody({
  value,
  fields,
  onOk,
  onCancel,
  distinct,
}: {
  value: FilterTree | null;
  fields: FilterField[];
  /** Reads a field's own values for the 字段的值 pick-list (null: not offered). */
  distinct: DistinctValues | null;
  onOk: (t: FilterTree | null) => void;
  onCancel: () => void;
}) {
  const [tree, setTree] = useState<FilterTree>(value ?? EMPTY_TREE);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    const problem = validateTree(tree, fields);
    setError(problem);
    if (problem) return;
    const normal = normaliseTree(tree, fields);
    onOk(itemCount(normal) > 0 ? normal : null);
  };
  return (
    <div data-testid="ccp-filter-dialog">
      <Alert type="info" showIcon title={cm.filterHint} style={{ marginBottom: 12 }} />
      <DistinctValuesContext.Provider value={distinct}>
        <FilterTreeEditor
          value={tree}
          fields={fields}
          testIdPrefix="cf"
          onChange={(t) => {
            setTree(t);
            setError(null);
          }}
        />
      </DistinctValuesContext.Provider>
      {error && <Alert type="warning" showIcon title={error} style={{ marginTop: 12 }} data-testid="ccp-filter-error" />}
      <div className="ccp-dialog-foot">
        <Button onClick={() => setTree(EMPTY_TREE)}>{cm.clear}</Button>
        <Space>
          <Button onClick={onCancel}>{cm.cancel}</Button>
          <Button type="primary" onClick={confirm} data-testid="ccp-filter-ok">
            {cm.confirm}
          </Button>
        </Space>
      </div>
    </div>
  );
}

/** 排序: rows of (a dimension or measure of the chart, 升序 / 降序). */
export function SortSection({ config, fields, onChange }: ConfigProps) {
  const choices = sortChoices(config);
  const label = (fieldId: number, aggregation: string | null | undefined) =>
    `${fieldTitle(fields, fieldId)}${aggregation ? `（${AGGREGATION_LABELS[aggregation as keyof typeof AGGREGATION_LABELS]}）` : ''}`;
  const options = choices.map((c) => ({ value: c.value, label: label(c.fieldId, c.aggregation) }));
  const setSorts = (sortList: DataConfig['sortList']) => onChange({ ...config, sortList });
  const unused = choices.filter((c) => !config.sortList.some((s) => sortValue(s) === c.value));
  return (
    <Section title={cm.sort} onClear={config.sortList.length > 0 ? () => setSorts([]) : undefined} testId="ccp-sort">
      {choices.length === 0 && <div className="ccp-muted">{cm.sortNeedsFields}</div>}
      {config.sortList.map((s, i) => (
        <div key={`${sortValue(s)}-${i}`} className="ccp-sort-row" data-testid="ccp-sort-row">
          <Select
            size="small"
            className="ccp-grow"
            value={sortValue(s)}
            options={options}
            aria-label={cm.sortField}
            onChange={(v) => {
              const c = choices.find((x) => x.value === v)!;
              setSorts(config.sortList.map((x, j) => (j === i ? { ...x, fieldId: c.fieldId, aggregation: c.aggregation } : x)));
            }}
          />
          <Segmented
            size="small"
            value={s.direction}
            options={[
              { value: 'ASC', label: cm.asc },
              { value: 'DESC', label: cm.desc },
            ]}
            onChange={(v) => setSorts(config.sortList.map((x, j) => (j === i ? { ...x, direction: v as 'ASC' | 'DESC' } : x)))}
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={cm.remove}
            onClick={() => setSorts(config.sortList.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      {unused.length > 0 && config.sortList.length < 10 && (
        <Button
          size="small"
          type="dashed"
          block
          icon={<PlusOutlined />}
          data-testid="ccp-sort-add"
          onClick={() => setSorts([...config.sortList, { fieldId: unused[0]!.fieldId, aggregation: unused[0]!.aggregation, direction: 'DESC' }])}
        >
          {cm.sortAdd}
        </Button>
      )}
    </Section>
  );
}

/** 结果条数 (aggregated charts) or 每页条数 (detail tables), checked as typed. */
export function LimitSection({ config, onChange, detail }: Omit<ConfigProps, 'fields'> & { detail: boolean }) {
  const [text, setText] = useState(config.limit ? String(config.limit) : '');
  const [error, setError] = useState<string | null>(null);
  // Follow the chart when its limit changes from outside (undo / redo), keeping what is typed when it says the same.
  const saved = config.limit ?? null;
  const [seen, setSeen] = useState(saved);
  if (seen !== saved) {
    setSeen(saved);
    const typed = parseLimit(text);
    if (!(typed.ok && typed.value === saved)) {
      setText(saved ? String(saved) : '');
      setError(null);
    }
  }
  if (detail) {
    return (
      <Section title={cm.pageSize} testId="ccp-page-size">
        <Select
          size="small"
          className="ccp-grow"
          value={config.pageSize ?? 20}
          options={DETAIL_PAGE_SIZES.map((n) => ({ value: n, label: cm.pageSizeOption(n) }))}
          onChange={(v) => onChange({ ...config, pageSize: v })}
          data-testid="ccp-page-size-select"
        />
      </Section>
    );
  }
  return (
    <Section title={cm.limit} onClear={config.limit ? () => onChange({ ...config, limit: null }) : undefined} testId="ccp-limit">
      <Row label={cm.limit} error={error}>
        <Input
          size="small"
          inputMode="numeric"
          placeholder={cm.limitPlaceholder}
          value={text}
          status={error ? 'error' : undefined}
          data-testid="ccp-limit-input"
          onChange={(e) => {
            setText(e.target.value);
            const parsed = parseLimit(e.target.value);
            if (!parsed.ok) {
              setError(parsed.error);
              return;
            }
            setError(null);
            if (parsed.value !== (config.limit ?? null)) onChange({ ...config, limit: parsed.value });
          }}
        />
      </Row>
    </Section>
  );
}

const DATE = 'YYYY-MM-DD';

/** Filter controls: the default value (select: some of the field's values; date: a range). */
export function DefaultValueSection({ chart, config, onChange }: { chart: Chart; config: DataConfig; onChange: (chart: Chart) => void }) {
  const value = chart.ext.defaultValue ?? [];
  const set = (v: (string | number)[]) => onChange({ ...chart, ext: { ...chart.ext, defaultValue: v.length > 0 ? v : null } });
  const isSelect = chart.name === 'filterSelect';
  const hasField = config.rowParamList.length > 0;
  // enumSource is read back as a plain number; the panel never changes it, so it is one of 1, 2, 3.
  const values = useChartData(isSelect && hasField ? { dataconfig: config as ChartDataConfig, mode: 'values' } : null);
  const options = useMemo(() => {
    const alias = values.data?.fieldDict[0]?.alias;
    if (!alias) return [];
    return values
      .data!.dataList.map((r) => r[alias])
      .filter((v): v is string | number => v !== null && v !== undefined && v !== '')
      .map((v) => ({ value: v, label: String(v) }));
  }, [values.data]);
  const range: [Dayjs, Dayjs] | null =
    value.length === 2 && dayjs(String(value[0]), DATE).isValid() ? [dayjs(String(value[0]), DATE), dayjs(String(value[1]), DATE)] : null;
  return (
    <Section title={cm.defaultValue} onClear={value.length > 0 ? () => set([]) : undefined} testId="ccp-default">
      {!hasField && <div className="ccp-muted">{cm.missing(cm.slotRows)}</div>}
      {hasField && isSelect && (
        <Select
          mode="tags"
          size="small"
          className="ccp-grow"
          placeholder={cm.defaultValuePlaceholder}
          loading={values.loading}
          value={value}
          options={options}
          onChange={(v) => set(v)}
          data-testid="ccp-default-select"
        />
      )}
      {hasField && !isSelect && (
        <DatePicker.RangePicker
          size="small"
          className="ccp-grow"
          placeholder={[cm.defaultRangeStart, cm.defaultRangeEnd]}
          value={range}
          onChange={(d) => set(d && d[0] && d[1] ? [d[0].format(DATE), d[1].format(DATE)] : [])}
        />
      )}
    </Section>
  );
}
