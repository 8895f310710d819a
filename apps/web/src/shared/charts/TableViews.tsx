import { useEffect, useMemo, useState, type TableHTMLAttributes } from 'react';
import { Button, Popover, Table, Tree, Typography } from 'antd';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import { chartMessages } from './messages.ts';
import type { MemberNode, StructureFilterState, TableColumnSpec, TableRow } from './tables.ts';
import { cellText, hiddenLeaves, TOTAL_ROW_KEY } from './tables.ts';

/** antd columns of the table specs (header groups for `children`). */
export function toAntColumns(specs: readonly TableColumnSpec[]): TableColumnsType<TableRow> {
  return specs.map((s) =>
    s.children
      ? { key: s.key, title: s.title, align: 'center' as const, children: toAntColumns(s.children) }
      : {
          key: s.key,
          title: s.title,
          dataIndex: s.dataIndex,
          align: s.align,
          onCell: s.total ? () => ({ style: { fontWeight: 600 } }) : undefined,
          render: (value: TableRow[string]) => cellText(s, value),
        },
  );
}

export interface DataTableProps {
  columns: readonly TableColumnSpec[];
  rows: TableRow[];
  pagination?: TablePaginationConfig | false;
  onRowClick?: (row: TableRow) => void;
}

/**
 * The table as wide as its content and at least as wide as the chart; the chart's body scrolls
 * it. This is what `scroll={{ x: 'max-content' }}` drew, without that option's measuring row,
 * whose cells read their widths while React commits: on a board of 20 charts each read laid out
 * the whole page again (the largest item of the board's trace after the tables' rows).
 */
function MaxContentTable(props: TableHTMLAttributes<HTMLTableElement>) {
  return <table {...props} style={{ ...props.style, width: 'max-content', minWidth: '100%' }} />;
}
const TABLE_COMPONENTS = { table: MaxContentTable };

/**
 * Rows drawn in the first picture of an unpaged table: a chart's box on a board shows about 6
 * (a tall one, or 全屏, about 25, which the rest reach long before anyone scrolls there).
 */
const FIRST_ROWS = 12;
/** How long the rest may wait for an idle moment of the page. */
const REST_WITHIN_MS = 1_000;

/**
 * An unpaged table's rows: the first FIRST_ROWS at once, the rest once the page is idle — after
 * the board's other charts have drawn — or at once when the pointer or focus reaches the table,
 * so that a board's first picture does not wait for rows nobody sees before scrolling (issue 26:
 * a board's six tables were most of its first render).
 */
function useRowsInSteps(rows: TableRow[], paged: boolean): { shown: TableRow[]; showAll: () => void } {
  const [complete, setComplete] = useState<TableRow[] | null>(null);
  const stepped = !paged && rows.length > FIRST_ROWS && complete !== rows;
  const shown = useMemo(() => (stepped ? rows.slice(0, FIRST_ROWS) : rows), [rows, stepped]);
  useEffect(() => {
    if (!stepped) return;
    const show = () => setComplete(rows);
    if (typeof requestIdleCallback === 'function') {
      const idle = requestIdleCallback(show, { timeout: REST_WITHIN_MS });
      return () => cancelIdleCallback(idle);
    }
    const timer = setTimeout(show, 0);
    return () => clearTimeout(timer);
  }, [rows, stepped]);
  return { shown, showAll: () => stepped && setComplete(rows) };
}

/** The summary, detail and pivot tables: small, bordered, the totals row bold. */
export function DataTable({ columns, rows, pagination = false, onRowClick }: DataTableProps) {
  const antColumns = useMemo(() => toAntColumns(columns), [columns]);
  const nested = columns.some((c) => c.children);
  const { shown, showAll } = useRowsInSteps(rows, pagination !== false);
  return (
    <div className="shutu-data-table" onPointerEnter={showAll} onTouchStart={showAll} onFocus={showAll}>
      <Table<TableRow>
        size="small"
        bordered={nested}
        columns={antColumns}
        dataSource={shown}
        rowKey="key"
        pagination={pagination}
        components={TABLE_COMPONENTS}
        rowClassName={(r) => (r.key === TOTAL_ROW_KEY ? 'shutu-chart-total-row' : '')}
        onRow={(r) => ({
          style: r.key === TOTAL_ROW_KEY ? { fontWeight: 600 } : undefined,
          onClick: onRowClick && r.key !== TOTAL_ROW_KEY ? () => onRowClick(r) : undefined,
        })}
      />
    </div>
  );
}

interface MembersProps {
  title: string;
  members: MemberNode[];
  leaves: string[];
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
}

function Members({ title, members, leaves, hidden, onChange }: MembersProps) {
  if (members.length === 0) return null;
  const hiddenSet = new Set(hidden);
  return (
    <div data-testid={`structure-${title}`} style={{ minWidth: 160 }}>
      <Typography.Text strong>{title}</Typography.Text>
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        treeData={members}
        checkedKeys={leaves.filter((k) => !hiddenSet.has(k))}
        onCheck={(checked) => {
          const keys = (Array.isArray(checked) ? checked : checked.checked).map(String);
          onChange(hiddenLeaves(keys, leaves));
        }}
      />
    </div>
  );
}

export interface StructureFilterProps {
  rowMembers: MemberNode[];
  columnMembers: MemberNode[];
  rowKeys: string[];
  columnKeys: string[];
  value: StructureFilterState;
  onChange: (value: StructureFilterState) => void;
}

/** 结构筛选: tick which row and column members of the pivot table are shown (client side). */
export function StructureFilter({ rowMembers, columnMembers, rowKeys, columnKeys, value, onChange }: StructureFilterProps) {
  const content = (
    <div style={{ display: 'flex', gap: 16, maxHeight: 360, overflow: 'auto' }}>
      <Members
        title={chartMessages.structureRows}
        members={rowMembers}
        leaves={rowKeys}
        hidden={value.hiddenRows}
        onChange={(hiddenRows) => onChange({ ...value, hiddenRows })}
      />
      <Members
        title={chartMessages.structureColumns}
        members={columnMembers}
        leaves={columnKeys}
        hidden={value.hiddenColumns}
        onChange={(hiddenColumns) => onChange({ ...value, hiddenColumns })}
      />
    </div>
  );
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <span>{chartMessages.structureFilter}</span>
          <Button size="small" type="link" onClick={() => onChange({ hiddenRows: [], hiddenColumns: [] })}>
            {chartMessages.structureReset}
          </Button>
        </div>
      }
      content={content}
    >
      <Button size="small" type="text">
        {chartMessages.structureFilter}
      </Button>
    </Popover>
  );
}
