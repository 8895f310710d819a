import { useRef, useState } from 'react';
import { Alert, Button, Input, Modal, Radio, Select, Space } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import type { ViewDataType } from '@shutu/contracts';
import { DATASET_DEFAULTS } from '@shutu/contracts';
import { ApiError } from '../../../app/api.ts';
import { errorText } from '../../../app/notify.ts';
import { checkFormula } from './api.ts';
import type { DimensionType, EditorField, EditorTable } from './model-state.ts';
import { tempFieldId, titleTaken, toCubeField, VIEW_TYPES } from './model-state.ts';
import { em } from './messages.ts';

export const COMPUTED_DIALOG_WIDTH = 920;
const WHOLE_VIEW = '';

interface Props {
  open: boolean;
  /** The field being edited; null adds a new one. */
  field: EditorField | null;
  fields: EditorField[];
  tables: EditorTable[];
  datasourceId: number;
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

function ComputedForm({ field, fields, tables, datasourceId, onOk, onCancel }: Props) {
  const [title, setTitle] = useState(field?.columnTitle ?? '');
  const [formula, setFormula] = useState(field?.columnFormula ?? '');
  const [alias, setAlias] = useState<string>(field?.tableAliasName ?? WHOLE_VIEW);
  const [kind, setKind] = useState<DimensionType>(field?.dimensionType ?? 'ZHIBIAO');
  const [viewType, setViewType] = useState<ViewDataType>(field?.viewDataType ?? 'NUMBER');
  const [error, setError] = useState<FormulaError | null>(null);
  const [checking, setChecking] = useState(false);
  const textarea = useRef<TextAreaRef>(null);
  const others = fields.filter((f) => f.id !== field?.id);

  const insert = (text: string) => {
    const el = textarea.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? formula.length;
    const end = el?.selectionEnd ?? formula.length;
    setFormula(formula.slice(0, start) + text + formula.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  const confirm = async () => {
    const name = title.trim();
    if (!name || !formula.trim()) return setError({ message: em.formulaRequired, position: null });
    if (titleTaken(others, name)) return setError({ message: em.fieldTitleDuplicate, position: null });
    setChecking(true);
    try {
      const { hasAggregation } = await checkFormula({ columnFormula: formula, datasourceId, fields: others.map(toCubeField) });
      setError(null);
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
        aggregationType: field?.aggregationType ?? DATASET_DEFAULTS.aggregationType,
        virtualAggregationStatus: hasAggregation ? 1 : 0,
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
            disabled={field !== null && field.tableAliasName !== null}
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
          <Select value={viewType} onChange={setViewType} options={VIEW_TYPES.map((t) => ({ value: t, label: em[t] }))} />
        </div>
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
