import { Table, Typography } from 'antd';
import type { SqlViewPreviewResult } from '@shutu/contracts';
import { formatMessage } from '@shutu/contracts';
import { previewCellText } from './charts/format.ts';
import { t } from './messages.ts';

/** The preview shows at most this many rows (the server may send as many). */
const SHOWN_ROWS = 100;

interface Props {
  result: SqlViewPreviewResult;
  /** Height of the scrolling table body. */
  height: number;
  testId: string;
}

/**
 * The rows a SQL statement returned on its source — the SQL-view preview and the AI assistant's
 * preview of generated SQL show them the same way: a summary line, then the first 100 rows with
 * each cell formatted by the column's type.
 */
export function SqlResultTable({ result, height, testId }: Props) {
  const shown = result.rows.slice(0, SHOWN_ROWS);
  const rows = shown.map((r, i) => ({ ...r, __row: i }));
  return (
    <div data-testid={testId}>
      <Typography.Text type="secondary" className="sql-result-summary">
        {formatMessage(t.sqlResultSummary, { count: rows.length, more: result.truncated ? t.sqlResultMore : '', ms: result.elapsedMs })}
      </Typography.Text>
      <Table
        size="small"
        rowKey="__row"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 'max-content', y: height }}
        columns={result.columns.map((c) => ({
          title: c.name,
          dataIndex: c.name,
          key: c.name,
          ellipsis: true,
          render: previewCellText(
            c.viewDataType,
            shown.map((r) => r[c.name]),
          ),
        }))}
      />
    </div>
  );
}
