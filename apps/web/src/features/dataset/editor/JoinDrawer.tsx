import { useState } from 'react';
import { Alert, Button, Drawer, Radio, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { JoinType, ViewDataType } from '@shutu/contracts';
import { JOIN_TYPES } from '@shutu/contracts';
import type { EditorJoinKey } from './model-state.ts';
import { em, fmt } from './messages.ts';

export const JOIN_DRAWER_WIDTH = 700;

/** A field one side of a join may use: a column name (vt 0) or a computed field's formula (vt 1). */
export interface JoinFieldOption {
  key: string;
  title: string;
  viewDataType: ViewDataType;
  vt: 0 | 1;
}

export interface JoinDrawerProps {
  open: boolean;
  sourceName: string;
  targetName: string;
  sourceFields: JoinFieldOption[];
  targetFields: JoinFieldOption[];
  initialType?: JoinType;
  initialKeys?: EditorJoinKey[];
  onOk: (joinType: JoinType, keys: EditorJoinKey[]) => void;
  onClose: () => void;
}

interface Row {
  source: string | undefined;
  target: string | undefined;
}

const emptyRow = (): Row => ({ source: undefined, target: undefined });

/** Checks the rows: both sides filled, equal data types. Answers the error text, or null. */
export function validateJoinRows(rows: readonly Row[], sourceFields: readonly JoinFieldOption[], targetFields: readonly JoinFieldOption[]): string | null {
  if (rows.length === 0) return em.joinKeyMissing;
  for (const row of rows) if (!row.source || !row.target) return em.joinKeyMissing;
  for (const row of rows) {
    const a = sourceFields.find((f) => f.key === row.source);
    const b = targetFields.find((f) => f.key === row.target);
    if (a && b && a.viewDataType !== b.viewDataType) return fmt(em.joinKeyTypeMismatch, { source: a.title, target: b.title });
  }
  return null;
}

/** Add or edit the join of a table to its parent: join type and one or more key pairs. */
export function JoinDrawer(props: JoinDrawerProps) {
  return (
    <Drawer title={em.joinTitle} size={JOIN_DRAWER_WIDTH} open={props.open} onClose={props.onClose} destroyOnHidden data-testid="join-drawer">
      {props.open && <JoinForm {...props} />}
    </Drawer>
  );
}

function JoinForm({ sourceName, targetName, sourceFields, targetFields, initialType, initialKeys, onOk, onClose }: JoinDrawerProps) {
  const [joinType, setJoinType] = useState<JoinType>(initialType ?? 'LEFT_JOIN');
  const [rows, setRows] = useState<Row[]>(() =>
    initialKeys && initialKeys.length > 0 ? initialKeys.map((k) => ({ source: k.sourceKey || undefined, target: k.targetKey || undefined })) : [emptyRow()],
  );
  const [error, setError] = useState<string | null>(null);

  const setRow = (i: number, patch: Partial<Row>) => {
    setRows((list) => list.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setError(null);
  };
  const options = (fields: JoinFieldOption[]) => fields.map((f) => ({ value: f.key, label: f.title }));

  const confirm = () => {
    const problem = validateJoinRows(rows, sourceFields, targetFields);
    setError(problem);
    if (problem) return;
    const vt = (fields: JoinFieldOption[], key: string) => fields.find((f) => f.key === key)?.vt ?? 0;
    onOk(
      joinType,
      rows.map((r) => ({
        sourceKey: r.source!,
        targetKey: r.target!,
        sourceKeyVtState: vt(sourceFields, r.source!),
        targetKeyVtState: vt(targetFields, r.target!),
      })),
    );
  };

  return (
    <div className="ds-join-form">
      <div className="ds-join-tables">
        <strong data-testid="join-source-name">{sourceName}</strong>
        <span> ⟷ </span>
        <strong data-testid="join-target-name">{targetName}</strong>
      </div>
      <div className="ds-join-row">
        <span className="ds-join-label">{em.joinType}</span>
        <Radio.Group value={joinType} onChange={(e) => setJoinType(e.target.value as JoinType)} data-testid="join-type">
          {JOIN_TYPES.map((t) => (
            <Radio.Button key={t} value={t}>
              {em[t]}
            </Radio.Button>
          ))}
        </Radio.Group>
      </div>
      <div className="ds-join-keys">
        <div className="ds-join-key ds-join-key-head">
          <span>{em.sourceField}</span>
          <span>{em.targetField}</span>
          <span />
        </div>
        {rows.map((row, i) => (
          <div className="ds-join-key" key={i} data-testid={`join-key-${i}`}>
            <Select
              aria-label={`${em.sourceField}${i + 1}`}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={em.sourceField}
              value={row.source}
              options={options(sourceFields)}
              onChange={(v: string) => setRow(i, { source: v })}
            />
            <Select
              aria-label={`${em.targetField}${i + 1}`}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={em.targetField}
              value={row.target}
              options={options(targetFields)}
              onChange={(v: string) => setRow(i, { target: v })}
            />
            <Button
              type="text"
              icon={<DeleteOutlined />}
              aria-label={em.removeKey}
              disabled={rows.length <= 1}
              onClick={() => setRows((list) => (list.length <= 1 ? list : list.filter((_, j) => j !== i)))}
            />
          </div>
        ))}
        <Button type="dashed" icon={<PlusOutlined />} onClick={() => setRows((list) => [...list, emptyRow()])} data-testid="join-add-key">
          {em.addKey}
        </Button>
      </div>
      {error && <Alert type="warning" showIcon title={error} data-testid="join-error" />}
      <Space className="ds-join-actions">
        <Button onClick={onClose}>{em.cancel}</Button>
        <Button type="primary" onClick={confirm} data-testid="join-ok">
          {em.confirm}
        </Button>
      </Space>
    </div>
  );
}
