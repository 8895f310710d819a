import { useMemo, useRef, useState, type DragEvent } from 'react';
import { Background, Controls, Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Button, Tooltip } from 'antd';
import { CloseOutlined, DownOutlined, FunctionOutlined, LinkOutlined, UnorderedListOutlined, UpOutlined } from '@ant-design/icons';
import type { EditorJoin, EditorTable } from './model-state.ts';
import { layoutTree, NODE_HEIGHT, NODE_WIDTH } from './layout.ts';
import { DRAG_MIME, type DragTable } from './LeftPanel.tsx';
import { em } from './messages.ts';
import { fpm } from './field-messages.ts';

export const CANVAS_MIN_HEIGHT = 240;

interface TableData extends Record<string, unknown> {
  alias: string;
  label: string;
  joinType: string | null;
  onEditJoin: (alias: string) => void;
  onDelete: (alias: string) => void;
  onSelectFields: (alias: string) => void;
  onAddComputed: (alias: string) => void;
}
interface SlotData extends Record<string, unknown> {
  alias: string;
  onDropTable: (alias: string, table: DragTable) => void;
}
type TableNode = Node<TableData, 'table'>;
type SlotNode = Node<SlotData, 'slot'>;

export function readDragged(e: DragEvent): DragTable | null {
  const text = e.dataTransfer.getData(DRAG_MIME);
  if (!text) return null;
  try {
    return JSON.parse(text) as DragTable;
  } catch {
    return null;
  }
}

function TableNodeView({ data }: NodeProps<TableNode>) {
  return (
    <div className="ds-node" style={{ width: NODE_WIDTH, height: NODE_HEIGHT }} data-testid={`ds-node-${data.alias}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      {data.joinType && (
        <Tooltip title={`${em.editJoin}（${em[data.joinType as 'LEFT_JOIN']}）`}>
          <Button
            size="small"
            type="text"
            className="ds-node-join nodrag"
            icon={<LinkOutlined />}
            aria-label={em.editJoin}
            onClick={() => data.onEditJoin(data.alias)}
          />
        </Tooltip>
      )}
      <span className="ds-node-label" title={data.label}>
        {data.label}
      </span>
      <Tooltip title={fpm.selectFields}>
        <Button
          size="small"
          type="text"
          className="nodrag"
          icon={<UnorderedListOutlined />}
          aria-label={fpm.selectFields}
          onClick={() => data.onSelectFields(data.alias)}
          data-testid={`ds-select-fields-${data.alias}`}
        />
      </Tooltip>
      <Tooltip title={em.computedFromNode}>
        <Button
          size="small"
          type="text"
          className="nodrag"
          icon={<FunctionOutlined />}
          aria-label={em.computedFromNode}
          onClick={() => data.onAddComputed(data.alias)}
          data-testid={`ds-computed-${data.alias}`}
        />
      </Tooltip>
      <Button size="small" type="text" className="nodrag" icon={<CloseOutlined />} aria-label={em.deleteNode} onClick={() => data.onDelete(data.alias)} />
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
}

function SlotNodeView({ data }: NodeProps<SlotNode>) {
  const [over, setOver] = useState(false);
  return (
    <div
      className={`ds-slot${over ? ' ds-slot-over' : ''}`}
      style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}
      data-testid={`ds-slot-${data.alias}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        const table = readDragged(e);
        if (table) data.onDropTable(data.alias, table);
      }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      {em.dropHere}
    </div>
  );
}

const nodeTypes = { table: TableNodeView, slot: SlotNodeView };

interface Props {
  tables: EditorTable[];
  joins: EditorJoin[];
  dragging: boolean;
  onDropFirst: (table: DragTable) => void;
  onDropOn: (sourceAlias: string, table: DragTable) => void;
  onEditJoin: (alias: string) => void;
  onDelete: (alias: string) => void;
  /** A node's 选择字段: the field-selection drawer of that table. */
  onSelectFields: (alias: string) => void;
  /** A node's 新建计算字段: a computed field of that table. */
  onAddComputed: (alias: string) => void;
}

/** The join tree: drop a first table to start, then drop tables on the slots beside nodes. */
export function JoinCanvas({ tables, joins, dragging, onDropFirst, onDropOn, onEditJoin, onDelete, onSelectFields, onAddComputed }: Props) {
  const [height, setHeight] = useState(300);
  const [collapsed, setCollapsed] = useState(false);
  const start = useRef<{ y: number; h: number } | null>(null);

  const { nodes, edges } = useMemo(() => {
    const laid = layoutTree(tables, joins, dragging);
    const nodes: (TableNode | SlotNode)[] = laid.map((n) => {
      if (n.placeholder)
        return { id: n.id, type: 'slot', position: { x: n.x, y: n.y }, data: { alias: n.alias, onDropTable: onDropOn }, draggable: false, selectable: false };
      const t = tables.find((x) => x.tableAliasName === n.alias)!;
      const join = joins.find((j) => j.target === n.alias);
      return {
        id: n.id,
        type: 'table',
        position: { x: n.x, y: n.y },
        data: { alias: n.alias, label: t.tableComment || t.tableName, joinType: join?.joinType ?? null, onEditJoin, onDelete, onSelectFields, onAddComputed },
        draggable: false,
      };
    });
    const edges: Edge[] = laid
      .filter((n) => n.parent)
      .map((n) => ({ id: `e:${n.parent}->${n.id}`, source: n.parent!, target: n.id, type: 'smoothstep', animated: n.placeholder }));
    return { nodes, edges };
  }, [tables, joins, dragging, onDropOn, onEditJoin, onDelete, onSelectFields, onAddComputed]);

  const onResizeStart = (e: React.MouseEvent) => {
    start.current = { y: e.clientY, h: height };
    const move = (ev: MouseEvent) => {
      if (start.current) setHeight(Math.max(CANVAS_MIN_HEIGHT, start.current.h + ev.clientY - start.current.y));
    };
    const up = () => {
      start.current = null;
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };

  return (
    <div className="ds-canvas-wrap" data-testid="ds-canvas">
      <div className="ds-canvas-bar">
        <Button
          size="small"
          type="text"
          icon={collapsed ? <DownOutlined /> : <UpOutlined />}
          onClick={() => setCollapsed((c) => !c)}
          data-testid="ds-canvas-toggle"
        >
          {collapsed ? em.canvasExpand : em.canvasCollapse}
        </Button>
      </div>
      {!collapsed && (
        <div className="ds-canvas" style={{ height }}>
          {tables.length === 0 ? (
            <div
              className={`ds-canvas-empty${dragging ? ' ds-canvas-empty-active' : ''}`}
              data-testid="ds-canvas-drop"
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                const table = readDragged(e);
                if (table) onDropFirst(table);
              }}
            >
              {em.dropToStart}
            </div>
          ) : (
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              fitView={false}
              nodesConnectable={false}
              proOptions={{ hideAttribution: true }}
              defaultViewport={{ x: 24, y: 24, zoom: 1 }}
            >
              <Background />
              <Controls showInteractive={false} />
            </ReactFlow>
          )}
        </div>
      )}
      {!collapsed && <div className="ds-canvas-resize" onMouseDown={onResizeStart} data-testid="ds-canvas-resize" />}
    </div>
  );
}
