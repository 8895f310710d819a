import { Alert, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchCheckRows } from './api.ts';
import { alm } from './messages.ts';

/** The rows a check kept (the first 100), as the alert's owner read them: 预警日志's expanded row. */
export function CheckRows({ checkId }: { checkId: number }) {
  const rows = useQuery({ queryKey: ['alert', 'check-rows', checkId], queryFn: () => fetchCheckRows(checkId) });
  if (rows.error) return <Alert type="error" title={rows.error.message} />;
  const data = rows.data;
  return (
    <Table
      size="small"
      loading={rows.isLoading}
      title={() => `${alm.keptRows}${data ? `（${data.rows.length} / ${data.rowCount ?? 0} 行）` : ''}`}
      rowKey={(_, i) => String(i)}
      pagination={false}
      scroll={{ y: 320 }}
      dataSource={(data?.rows ?? []).map((r) => Object.fromEntries(r.map((v, i) => [String(i), v === null ? '' : String(v)])))}
      columns={(data?.titles ?? []).map((title, i) => ({ title, dataIndex: String(i), key: String(i) }))}
      data-testid="alert-check-rows"
    />
  );
}
