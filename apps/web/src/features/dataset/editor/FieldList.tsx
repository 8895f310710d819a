import { useState } from 'react';
import { Button, Input, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, EyeInvisibleOutlined, EyeOutlined, SwapOutlined } from '@ant-design/icons';
import type { FieldId } from '@shutu/contracts';
import type { DimensionType, EditorField } from './model-state.ts';
import { sortedGroup } from './model-state.ts';
import { em } from './messages.ts';

interface Props {
  fields: EditorField[];
  onlyAvailable: boolean;
  onToggleKind: (id: FieldId) => void;
  onToggleHidden: (id: FieldId) => void;
  /** Answers false when the title was refused. */
  onRename: (id: FieldId, title: string) => boolean;
  onMove: (id: FieldId, toIndex: number) => void;
  onDelete: (field: EditorField) => void;
  onEditComputed: (field: EditorField) => void;
}

/** The fields in two groups (维度 / 指标), reorderable by drag within a group. */
export function FieldList(props: Props) {
  return (
    <div className="ds-fields" data-testid="ds-fields">
      <FieldGroup {...props} kind="WEIDU" />
      <FieldGroup {...props} kind="ZHIBIAO" />
    </div>
  );
}

function FieldGroup({
  fields,
  onlyAvailable,
  kind,
  onToggleKind,
  onToggleHidden,
  onRename,
  onMove,
  onDelete,
  onEditComputed,
}: Props & { kind: DimensionType }) {
  const [dragId, setDragId] = useState<FieldId | null>(null);
  const [editing, setEditing] = useState<{ id: FieldId; title: string } | null>(null);
  const group = sortedGroup(fields, kind);
  const shown = onlyAvailable ? group.filter((f) => !f.hiddenStatus) : group;
  return (
    <div className="ds-field-group" data-testid={`ds-fields-${kind}`}>
      <div className="ds-field-group-title">
        {kind === 'WEIDU' ? em.dimension : em.indicator}（{group.length}）
      </div>
      <ul>
        {shown.map((f) => (
          <li
            key={String(f.id)}
            className={`ds-field${f.hiddenStatus ? ' ds-field-hidden' : ''}`}
            data-testid={`ds-field-${f.columnTitle}`}
            draggable={!editing}
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', String(f.id));
              setDragId(f.id);
            }}
            onDragOver={(e) => {
              if (dragId !== null) e.preventDefault();
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragId !== null && dragId !== f.id)
                onMove(
                  dragId,
                  group.findIndex((g) => g.id === f.id),
                );
              setDragId(null);
            }}
            onDragEnd={() => setDragId(null)}
          >
            {editing?.id === f.id ? (
              <Input
                size="small"
                autoFocus
                value={editing.title}
                aria-label={em.rename}
                onChange={(e) => setEditing({ id: f.id, title: e.target.value })}
                onPressEnter={() => {
                  if (onRename(f.id, editing.title)) setEditing(null);
                }}
                onBlur={() => {
                  if (onRename(f.id, editing.title)) setEditing(null);
                }}
              />
            ) : (
              <span className="ds-field-title" title={f.columnName ?? f.columnFormula ?? ''}>
                {f.columnAttr === 'VIRTUAL' ? 'ƒ ' : ''}
                {f.columnTitle}
              </span>
            )}
            <span className="ds-field-actions">
              <Tooltip title={kind === 'WEIDU' ? em.toIndicator : em.toDimension}>
                <Button
                  size="small"
                  type="text"
                  icon={<SwapOutlined />}
                  aria-label={kind === 'WEIDU' ? em.toIndicator : em.toDimension}
                  onClick={() => onToggleKind(f.id)}
                />
              </Tooltip>
              <Tooltip title={f.hiddenStatus ? em.show : em.hide}>
                <Button
                  size="small"
                  type="text"
                  icon={f.hiddenStatus ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                  aria-label={f.hiddenStatus ? em.show : em.hide}
                  onClick={() => onToggleHidden(f.id)}
                />
              </Tooltip>
              <Tooltip title={f.columnAttr === 'VIRTUAL' ? em.editComputed : em.rename}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={f.columnAttr === 'VIRTUAL' ? em.editComputed : em.rename}
                  onClick={() => (f.columnAttr === 'VIRTUAL' ? onEditComputed(f) : setEditing({ id: f.id, title: f.columnTitle }))}
                />
              </Tooltip>
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={em.delete} onClick={() => onDelete(f)} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
