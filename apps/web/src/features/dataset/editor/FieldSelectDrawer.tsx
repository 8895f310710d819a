import { useState } from 'react';
import { Button, Checkbox, Drawer, Empty, Input, Space, Typography } from 'antd';
import type { EditorField } from './model-state.ts';
import { fpm } from './field-messages.ts';

/** The fields a table node holds, and which of them are shown (not hidden). */
export interface FieldSelection {
  alias: string;
  label: string;
}

interface Props {
  selection: FieldSelection | null;
  fields: readonly EditorField[];
  onClose: () => void;
  /** The ids to show; the node's other fields are hidden. */
  onConfirm: (alias: string, shown: ReadonlySet<EditorField['id']>) => void;
}

const matches = (f: EditorField, keyword: string) =>
  !keyword || f.columnTitle.toLowerCase().includes(keyword) || (f.columnName ?? '').toLowerCase().includes(keyword);

/**
 * 选择字段 (spec 2 §2 "Dialogs and drawers", a 500px drawer): choose many fields of one table at
 * once — search, 全选 and 反选 act on the fields the search shows; the fields left unticked are
 * hidden (隐藏), not removed, so computed fields and joins that read them keep working.
 */
export function FieldSelectDrawer({ selection, fields, onClose, onConfirm }: Props) {
  const own = selection ? fields.filter((f) => f.columnAttr === 'NORMAL' && f.tableAliasName === selection.alias) : [];
  return (
    <Drawer
      open={selection !== null}
      title={selection ? `${fpm.selectFields}：${selection.label}` : fpm.selectFields}
      size={500}
      onClose={onClose}
      destroyOnHidden
    >
      {selection && <FieldSelectBody key={selection.alias} own={own} onClose={onClose} onConfirm={(shown) => onConfirm(selection.alias, shown)} />}
    </Drawer>
  );
}

/** The drawer's content, mounted per opening: the ticks start from the fields shown now. */
function FieldSelectBody({ own, onClose, onConfirm }: { own: EditorField[]; onClose: () => void; onConfirm: (shown: ReadonlySet<EditorField['id']>) => void }) {
  const [keyword, setKeyword] = useState('');
  const [ticked, setTicked] = useState<Set<EditorField['id']>>(() => new Set(own.filter((f) => !f.hiddenStatus).map((f) => f.id)));
  const kw = keyword.trim().toLowerCase();
  const visible = own.filter((f) => matches(f, kw));
  const allTicked = visible.length > 0 && visible.every((f) => ticked.has(f.id));
  const change = (fn: (next: Set<EditorField['id']>) => void) =>
    setTicked((current) => {
      const next = new Set(current);
      fn(next);
      return next;
    });

  return (
    <>
      <Input.Search allowClear placeholder={fpm.search} value={keyword} onChange={(e) => setKeyword(e.target.value)} data-testid="ds-field-select-search" />
      <div className="ds-field-select-tools">
        <Checkbox
          checked={allTicked}
          indeterminate={!allTicked && visible.some((f) => ticked.has(f.id))}
          onChange={(e) => change((next) => visible.forEach((f) => (e.target.checked ? next.add(f.id) : next.delete(f.id))))}
        >
          {fpm.selectAll}
        </Checkbox>
        <Button size="small" onClick={() => change((next) => visible.forEach((f) => (next.has(f.id) ? next.delete(f.id) : next.add(f.id))))}>
          {fpm.invert}
        </Button>
        <Typography.Text type="secondary">{fpm.selected.replace('{n}', String(ticked.size)).replace('{total}', String(own.length))}</Typography.Text>
      </div>
      {visible.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <ul className="ds-field-select-list" data-testid="ds-field-select-list">
          {visible.map((f) => (
            <li key={String(f.id)}>
              <Checkbox checked={ticked.has(f.id)} onChange={(e) => change((next) => (e.target.checked ? next.add(f.id) : next.delete(f.id)))}>
                {f.columnTitle}
                {f.columnName && f.columnName !== f.columnTitle ? <Typography.Text type="secondary">（{f.columnName}）</Typography.Text> : null}
              </Checkbox>
            </li>
          ))}
        </ul>
      )}
      <Space className="ds-field-select-actions">
        <Button onClick={onClose}>{fpm.cancel}</Button>
        <Button type="primary" onClick={() => onConfirm(ticked)} data-testid="ds-field-select-ok">
          {fpm.confirm}
        </Button>
      </Space>
    </>
  );
}
