import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Button, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { FilterItemEditor, RelationToggle } from './FilterItemEditor.tsx';
import { fm } from './messages.ts';
import { addItem, moveItem, newItem, toggleRelation, type ItemRef, type NodeRef } from './tree-ops.ts';
import type { FilterItem, FilterTree, FilterTreeEditorProps } from './types.ts';
import './filter.css';

const nodeKey = (node: NodeRef) => (node === 'root' ? 'root' : `group-${node}`);

/**
 * The filter tree editor (spec 2 §4): a root group with a 且/或 toggle holding items and
 * nested groups (two levels at most), each group with its own toggle and 添加条件; items
 * can be wrapped into a new group from the root (嵌套), removed, and dragged between nodes
 * (empty groups are pruned). With `params` each condition may use a global parameter.
 *
 * Test ids (prefix `testIdPrefix ?? 'ft'`): `-tree`, `-relation`, `-add-item`,
 * `-group-{g}`, `-group-{g}-relation`, `-group-{g}-add-item`, and per item (numbered
 * through the tree, root items first) `-item-{i}` with `-field`, `-fn`, `-value`,
 * `-time-type`, `-use-param`, `-param`, `-connect`, `-add-condition`, `-remove-condition`,
 * `-wrap`, `-remove`, `-drag`; the n-th further condition's controls end in `-c{n}`.
 */
export function FilterTreeEditor({ value, onChange, fields, params, disabled, testIdPrefix }: FilterTreeEditorProps) {
  const p = testIdPrefix ?? 'ft';
  const dragging = useRef<ItemRef | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const update = (op: (tree: FilterTree) => FilterTree) => {
    const next = op(value);
    if (next !== value) onChange(next);
  };

  const drop = (node: NodeRef, index: number | undefined, e: DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(null);
    const from = dragging.current;
    dragging.current = null;
    if (!from || disabled) return;
    update((t) => moveItem(t, from, node, index));
  };

  const dropZone = (node: NodeRef) => ({
    onDragOver: (e: DragEvent) => {
      if (disabled || !dragging.current) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer.dropEffect = 'move';
      if (over !== nodeKey(node)) setOver(nodeKey(node));
    },
    onDragLeave: (e: DragEvent) => {
      if (e.currentTarget === e.target) setOver(null);
    },
    onDrop: (e: DragEvent) => drop(node, undefined, e),
  });

  let flat = 0;
  const renderItems = (node: NodeRef, items: readonly FilterItem[]) =>
    items.map((item, index) => {
      const flatIndex = flat++;
      return (
        <FilterItemEditor
          key={item.uniqId ?? `${nodeKey(node)}-${index}`}
          item={item}
          at={{ node, index }}
          flatIndex={flatIndex}
          fields={fields}
          params={params}
          disabled={disabled}
          prefix={p}
          update={update}
          onDragStart={(at) => {
            dragging.current = at;
          }}
          onDragEnd={() => {
            dragging.current = null;
            setOver(null);
          }}
          onDropOn={(at, e) => drop(at.node, at.index, e)}
        />
      );
    });

  const box = (node: NodeRef, relation: 'AND' | 'OR', testId: string, children: ReactNode, addTestId: string, relationTestId: string) => (
    <div
      className={`ft-node ${node === 'root' ? 'ft-root' : 'ft-group'}${over === nodeKey(node) ? ' ft-drop-over' : ''}`}
      data-testid={testId}
      {...dropZone(node)}
    >
      <div className="ft-node-rail">
        <RelationToggle value={relation} disabled={disabled} testId={relationTestId} onToggle={() => update((t) => toggleRelation(t, node))} />
      </div>
      <div className="ft-node-body">
        {children}
        {!disabled && (
          <div className="ft-node-foot">
            <Button size="small" type="link" icon={<PlusOutlined />} data-testid={addTestId} onClick={() => update((t) => addItem(t, node, newItem()))}>
              {fm.addCondition}
            </Button>
          </div>
        )}
      </div>
    </div>
  );

  const empty = value.conditions.length === 0 && value.filters.length === 0;
  const rootItems = renderItems('root', value.conditions);
  const groups = value.filters.map((g, gi) => (
    <div key={`group-${gi}`}>
      {box(gi, g.relation, `${p}-group-${gi}`, renderItems(gi, g.conditions), `${p}-group-${gi}-add-item`, `${p}-group-${gi}-relation`)}
    </div>
  ));

  return (
    <div className={`ft${disabled ? ' ft-disabled' : ''}`} data-testid={`${p}-tree`}>
      {box(
        'root',
        value.relation,
        `${p}-root`,
        <>
          {empty && (
            <Typography.Text type="secondary" className="ft-empty">
              {fm.noConditions}
            </Typography.Text>
          )}
          {rootItems}
          {groups}
        </>,
        `${p}-add-item`,
        `${p}-relation`,
      )}
    </div>
  );
}
