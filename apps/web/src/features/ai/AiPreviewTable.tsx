import { Table, Typography } from 'antd';
import type { SqlViewPreviewResult } from '@shutu/contracts';
import { previewCellText } from '../../shared/charts/format.ts';
import { am, fill } from './messages.ts';

/** The rows the generated SQL returned on the source (at most 100), as the SQL-view preview shows them. */
export function AiPreviewTable({ result }: { result: SqlViewPreviewResult }) {
  const rows = result.rows.map((r, i) => ({ ...r, __row: i }));
  return (
    <div data-testid="ai-sql-preview">
      <Typography.Text type="secondary" className="ai-summary">
        {fill(am.previewSummary, { count: rows.length, more: result.truncated ? am.previewMore : '', ms: result.elapsedMs })}
      </Typography.Text>
      <Table
        size="small"
        rowKey="__row"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 'max-content', y: 220 }}
        columns={result.columns.map((c) => ({
          title: c.name,
          dataIndex: c.name,
          key: c.name,
          ellipsis: true,
          render: previewCellText(
            c.viewDataType,
            result.rows.map((r) => r[c.name]),
          ),
        }))}
      />
    </div>
  );
}
