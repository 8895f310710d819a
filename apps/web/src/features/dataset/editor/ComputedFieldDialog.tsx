import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, Modal, Radio, Select, Space, Spin, Tabs, Tooltip } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import type { AggregationType, DataSourceType, FormulaFunction, GlobalParam, ViewDataType } from '@shutu/contracts';
import { DATASET_DEFAULTS } from '@shutu/contracts';
import { ApiError } from '../../../shared/api.ts';
import { errorText } from '../../../shared/notify.ts';
import { checkFormula, editorKeys, fetchFunctions, fetchGlobalParams } from './api.ts';
import type { DimensionType, EditorField, EditorTable } from './model-state.ts';
import { AGGREGATIONS, tempFieldId, titleTaken, toCubeField, VIEW_TYPES } from './model-state.ts';
import { em } from './messages.ts';
import { AiFormulaPanel } from '../../ai/index.ts';

export const COMPUTED_DIALOG_WIDTH = 920;
const WHOLE_VIEW = '';
/** How long the formula rests before it is checked for an aggregate (which decides whether a default aggregation is offered). */
export const AGGREGATE_CHECK_DELAY_MS = 500;

/** The text a global parameter inserts into a formula: `${key}`, quoted for STRING parameters (spec §5). */
export const paramToken = (param: Pick<GlobalParam, 'paramKey' | 'paramColumnType'>): string =>
  param.paramColumnType === 'STRING' ? `'\${${param.paramKey}}'` : `\${${param.paramKey}}`;

/** Default aggregation is offered for a number indicator whose formula has no aggregate (spec §5). */
export const aggregationOffered = (kind: DimensionType, viewType: ViewDataType, hasAggregation: boolean | null): boolean =>
  kind === 'ZHIBIAO' && viewType === 'NUMBER' && hasAggregation === false;

interface Props {
  open: boolean;
  /** The field being edited; null adds a new one. */
  field: EditorField | null;
  fields: EditorField[];
  tables: EditorTable[];
  datasourceId: number;
  /** The data source's engine: which functions the browser lists. */
  dsType?: DataSourceType | null;
  /**
   * Opened from a canvas node: the new field belongs to that table and the choice is fixed.
   * Absent or null (opened from the toolbar, the whole view): the table choice is free.
   */
  fixedAlias?: string | null;
  onOk: (field: EditorField) => void;
  onCancel: () => void;
}

/** Add or edit a computed field: title, table, type, and a formula checked by the engine. */
export function ComputedFieldDialog(props: Props) {
  return (
    <Modal
      title={props.field ? em.editComputed : em.newComputed}
      width={COMPUTED_DIALOG_WIDTH}
      open={props.open}
      onCancel={props.onCancel}
      footer={null}
      destroyOnHidden
    >
      {props.open && <ComputedForm {...props} />}
    </Modal>
  );
}

interface FormulaError {
  message: string;
  position: number | null;
}

function ComputedForm({ field, fields, tables, datasourceId, dsType, fixedAlias, onOk, onCancel }: Props) {
  const fixed = field === null && fixedAlias != null;
  const [title, setTitle] = useState(field?.columnTitle ?? '');
  const [formula, setFormula] = useState(field?.columnFormula ?? '');
  const [alias, setAlias] = useState<string>(field ? (field.tableAliasName ?? WHOLE_VIEW) : (fixedAlias ?? WHOLE_VIEW));
  const [kind, setKind] = useState<DimensionType>(field?.dimensionType ?? 'ZHIBIAO');
  const [viewType, setViewType] = useState<ViewDataType>(field?.viewDataType ?? 'NUMBER');
  const [aggregation, setAggregation] = useState<AggregationType>(field?.aggregationType ?? DATASET_DEFAULTS.aggregationType);
  /** Whether the formula aggregates, by the engine's last answer; null: not known. */
  const [aggregate, setAggregate] = useState<{ formula: string; has: boolean } | null>(
    field?.columnFormula ? { formula: field.columnFormula, has: field.virtualAggregationStatus === 1 } : null,
  );
  const [error, setError] = useState<FormulaError | null>(null);
  const [checking, setChecking] = useState(false);
  const textarea = useRef<TextAreaRef>(null);
  const others = fields.filter((f) => f.id !== field?.id);
  const hasAggregation = aggregate && aggregate.formula === formula ? aggregate.has : null;
  const wantsAggregate = kind === 'ZHIBIAO' && viewType === 'NUMBER';

  // A number indicator's formula is checked once it rests: the answer says whether a default aggregation is offered.
  const known = hasAggregation !== null;
  const fieldId = field?.id;
  // Not while confirming or while an error shows: the confirm's own check answers then.
  const quiet = checking || error !== null;
  useEffect(() => {
    if (!wantsAggregate || known || quiet || !formula.trim()) return;
    let live = true;
    const timer = setTimeout(() => {
      const context = fields.filter((f) => f.id !== fieldId).map(toCubeField);
      checkFormula({ columnFormula: formula, datasourceId, fields: context }).then(
        (r) => live && setAggregate({ formula, has: r.hasAggregation }),
        () => undefined, // a wrong formula is reported on confirm
      );
    }, AGGREGATE_CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [formula, wantsAggregate, known, quiet, fields, fieldId, datasourceId]);

  /** Inserts `text` at the cursor; the cursor ends `back` characters before its end. */
  const insert = (text: string, back = 0) => {
    const el = textarea.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? formula.length;
    const end = el?.selectionEnd ?? formula.length;
    setFormula(formula.slice(0, start) + text + formula.slice(end));
    setError(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length - back, start + text.length - back);
    });
  };

  const confirm = async () => {
    const name = title.trim();
    if (!name || !formula.trim()) return setError({ message: em.formulaRequired, position: null });
    if (titleTaken(others, name)) return setError({ message: em.fieldTitleDuplicate, position: null });
    setChecking(true);
    try {
      const { hasAggregation: has } = await checkFormula({ columnFormula: formula, datasourceId, fields: others.map(toCubeField) });
      setError(null);
      setAggregate({ formula, has });
      onOk({
        id: field?.id ?? tempFieldId('c'),
        columnName: null,
        columnTitle: name,
        columnComment: field?.columnComment ?? null,
        columnAttr: 'VIRTUAL',
        columnFormula: formula,
        tableName: tables.find((t) => t.tableAliasName === alias)?.tableName ?? null,
        tableAliasName: alias || null,
        dimensionType: kind,
        viewDataType: viewType,
        oldViewDataType: field?.oldViewDataType ?? viewType,
        hiddenStatus: field?.hiddenStatus ?? 0,
        sortNum: field?.dimensionType === kind ? field.sortNum : Number.MAX_SAFE_INTEGER,
        numberDataFormat: field?.numberDataFormat ?? DATASET_DEFAULTS.numberDataFormat,
        timeDataFormat: field?.timeDataFormat ?? DATASET_DEFAULTS.timeDataFormat,
        // Chosen only where offered; otherwise the field keeps what it had.
        aggregationType: aggregationOffered(kind, viewType, has) ? aggregation : (field?.aggregationType ?? DATASET_DEFAULTS.aggregationType),
        virtualAggregationStatus: has ? 1 : 0,
        isExtra: field?.isExtra ?? 0,
      });
    } catch (e) {
      const position = e instanceof ApiError ? (e.data as { position?: unknown } | null)?.position : null;
      setError({ message: errorText(e), position: typeof position === 'number' ? position : null });
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="ds-cf" data-testid="cf-dialog">
      <div className="ds-cf-fields">
        <Tabs
          size="small"
          className="ds-cf-tabs"
          items={[
            {
              key: 'fields',
              label: em.tabFields,
              children: (
                <>
                  <div className="ds-cf-fields-title">{em.insertField}</div>
                  <ul>
                    {others.map((f) => (
                      <li key={String(f.id)}>
                        <button type="button" className="ds-cf-field" onClick={() => insert(`[${f.columnTitle}]`)} data-testid={`cf-field-${f.columnTitle}`}>
                          {f.columnAttr === 'VIRTUAL' ? 'ƒ ' : ''}
                          {f.columnTitle}
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              ),
            },
            { key: 'functions', label: em.tabFunctions, children: <FunctionBrowser dsType={dsType ?? null} onInsert={(name) => insert(`${name}()`, 1)} /> },
            { key: 'params', label: em.tabParams, children: <ParamBrowser onInsert={(p) => insert(paramToken(p))} /> },
          ]}
        />
      </div>
      <div className="ds-cf-form">
        <label className="ds-cf-row">
          <span className="ds-cf-label">{em.computedTitle}</span>
          <Input value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} data-testid="cf-title" />
        </label>
        <div className="ds-cf-row">
          <span className="ds-cf-label">{em.tableOf}</span>
          <Select
            value={alias}
            aria-label={em.tableOf}
            disabled={fixed || (field !== null && field.tableAliasName !== null)}
            onChange={setAlias}
            options={[{ value: WHOLE_VIEW, label: em.wholeView }, ...tables.map((t) => ({ value: t.tableAliasName, label: t.tableComment || t.tableName }))]}
            data-testid="cf-table"
          />
        </div>
        <div className="ds-cf-row">
          <span className="ds-cf-label">{em.fieldKind}</span>
          <Radio.Group value={kind} onChange={(e) => setKind(e.target.value as DimensionType)}>
            <Radio value="WEIDU">{em.dimension}</Radio>
            <Radio value="ZHIBIAO">{em.indicator}</Radio>
          </Radio.Group>
        </div>
        <div className="ds-cf-row">
          <span className="ds-cf-label">{em.dataType}</span>
          <Select value={viewType} aria-label={em.dataType} onChange={setViewType} options={VIEW_TYPES.map((t) => ({ value: t, label: em[t] }))} />
        </div>
        {aggregationOffered(kind, viewType, hasAggregation) && (
          <div className="ds-cf-row" data-testid="cf-aggregation-row">
            <span className="ds-cf-label">{em.aggregation}</span>
            <Select
              value={aggregation}
              aria-label={em.aggregation}
              onChange={setAggregation}
              options={AGGREGATIONS.map((a) => ({ value: a, label: em[a] }))}
              data-testid="cf-aggregation"
            />
          </div>
        )}
        <div className="ds-cf-row ds-cf-formula">
          <span className="ds-cf-label">{em.formula}</span>
          <Input.TextArea
            ref={textarea}
            rows={6}
            value={formula}
            placeholder={em.formulaPlaceholder}
            onChange={(e) => {
              setFormula(e.target.value);
              setError(null);
            }}
            data-testid="cf-formula"
          />
        </div>
        <AiFormulaPanel
          datasourceId={datasourceId}
          fields={others.map(toCubeField)}
          onUse={(text) => {
            setFormula(text);
            setError(null);
          }}
        />
        {error && (
          <Alert
            type="error"
            showIcon
            data-testid="cf-error"
            title={error.message}
            description={
              error.position !== null ? (
                <code className="ds-cf-pos" data-testid="cf-error-position">
                  {formula.slice(0, error.position)}
                  <mark>{formula.slice(error.position, error.position + 1) || ' '}</mark>
                  {formula.slice(error.position + 1)}
                </code>
              ) : undefined
            }
          />
        )}
        <Space className="ds-dialog-actions">
          <Button onClick={onCancel}>{em.cancel}</Button>
          <Button type="primary" loading={checking} onClick={() => void confirm()} data-testid="cf-ok">
            {em.confirm}
          </Button>
        </Space>
      </div>
    </div>
  );
}

/** The data source's functions by category, with their descriptions; a click inserts `NAME()`. */
function FunctionBrowser({ dsType, onInsert }: { dsType: DataSourceType | null; onInsert: (name: string) => void }) {
  const [search, setSearch] = useState('');
  const list = useQuery({ queryKey: editorKeys.functions(dsType ?? 'duckdb'), queryFn: () => fetchFunctions(dsType!), enabled: dsType !== null });
  if (list.isLoading) return <Spin size="small" />;
  if (list.isError) return <Alert type="error" showIcon title={errorText(list.error)} />;
  const text = search.trim().toUpperCase();
  const matches = (f: FormulaFunction) => !text || f.name.toUpperCase().includes(text) || f.description.toUpperCase().includes(text);
  const groups = (list.data?.categories ?? [])
    .map((c) => ({ ...c, functions: (list.data?.functions ?? []).filter((f) => f.category === c.value && matches(f)) }))
    .filter((g) => g.functions.length > 0);
  return (
    <div className="ds-cf-browser" data-testid="cf-functions">
      <Input
        size="small"
        allowClear
        placeholder={em.searchPlaceholder}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-label={em.tabFunctions}
      />
      {groups.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={em.noFunctions} />}
      {groups.map((g) => (
        <div key={g.value} className="ds-cf-group">
          <div className="ds-cf-fields-title">{g.label}</div>
          <ul>
            {g.functions.map((f) => (
              <li key={f.name}>
                <Tooltip title={`${f.description}${f.example ? `（${f.example}）` : ''}`} placement="right">
                  <button type="button" className="ds-cf-field" onClick={() => onInsert(f.name)} data-testid={`cf-fn-${f.name}`}>
                    {f.name}
                    <span className="ds-cf-desc">{f.description}</span>
                  </button>
                </Tooltip>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/** The global parameters; a click inserts `${key}`, quoted for text parameters. */
function ParamBrowser({ onInsert }: { onInsert: (param: GlobalParam) => void }) {
  const list = useQuery({ queryKey: editorKeys.globalParams, queryFn: fetchGlobalParams });
  if (list.isLoading) return <Spin size="small" />;
  if (list.isError) return <Alert type="error" showIcon title={errorText(list.error)} />;
  const params = list.data?.records ?? [];
  if (params.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={em.noParams} />;
  return (
    <ul className="ds-cf-browser" data-testid="cf-params">
      {params.map((p) => (
        <li key={p.id}>
          <button
            type="button"
            className="ds-cf-field"
            title={`${p.typeName} · ${em[p.paramColumnType]}`}
            onClick={() => onInsert(p)}
            data-testid={`cf-param-${p.paramKey}`}
          >
            {p.paramName}
            <span className="ds-cf-desc">{p.paramKey}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
