import { useState } from 'react';
import { Button, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataApiCallLog } from '@shutu/contracts';
import { formatDateTime } from '../../../shared/time.ts';
import { dataApiKeys, fetchCallLogs, fetchCallStats, fetchDataApis, type CallStat } from '../api.ts';
import { am } from '../messages.ts';
import { RuntimeSettings } from './RuntimeSettings.tsx';

/** 调用日志: calls, failures and p95 per API over the last 24 hours, then every call (refusals included). */
export function CallLogTab() {
  const queryClient = useQueryClient();
  const [apiId, setApiId] = useState<number | undefined>();
  const [paging, setPaging] = useState({ current: 1, size: 20 });
  const stats = useQuery({ queryKey: dataApiKeys.stats, queryFn: fetchCallStats });
  const logs = useQuery({
    queryKey: dataApiKeys.logs(apiId, paging.current, paging.size),
    queryFn: () => fetchCallLogs(apiId, paging.current, paging.size),
    placeholderData: keepPreviousData,
  });
  const apis = useQuery({ queryKey: dataApiKeys.list({ size: 1000 }), queryFn: () => fetchDataApis({ current: 1, size: 1000 }) });
  const statColumns: TableColumnsType<CallStat> = [
    { title: am.logApi, dataIndex: 'apiKey', render: (k: string) => <code>{k}</code> },
    { title: am.calls, dataIndex: 'calls', width: 100 },
    { title: am.failures, dataIndex: 'failures', width: 100, render: (n: number) => (n ? <Typography.Text type="danger">{n}</Typography.Text> : 0) },
    { title: am.p95, dataIndex: 'p95Ms', width: 120, render: (n: number | null) => am.ms(n) },
  ];
  const logColumns: TableColumnsType<DataApiCallLog> = [
    { title: am.logTime, key: 'time', width: 170, render: (_, l) => formatDateTime(l.createTime) },
    { title: am.logApi, dataIndex: 'apiKey', render: (k: string) => <code>{k}</code> },
    { title: am.logCaller, key: 'caller', render: (_, l) => l.accessKey ?? (l.userId ? am.user(l.userId) : '-') },
    { title: am.logParams, dataIndex: 'params', ellipsis: true },
    { title: am.logStatus, dataIndex: 'status', width: 100, render: (s: number) => <Tag color={s < 300 ? 'success' : s < 500 ? 'warning' : 'error'}>{s}</Tag> },
    { title: am.logRows, dataIndex: 'rows', width: 80 },
    { title: am.logDuration, dataIndex: 'durationMs', width: 100, render: (n: number) => am.ms(n) },
    { title: am.logError, dataIndex: 'errorMsg', ellipsis: true, render: (m: string | null) => m ?? '-' },
  ];
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {am.stats24h}
        </Typography.Title>
        <Button size="small" icon={<ReloadOutlined />} onClick={() => void queryClient.invalidateQueries({ queryKey: ['dataapi'] })}>
          {am.refresh}
        </Button>
        <RuntimeSettings />
      </Space>
      <Table<CallStat>
        rowKey="apiId"
        size="small"
        columns={statColumns}
        dataSource={stats.data ?? []}
        pagination={false}
        style={{ marginBottom: 24 }}
        data-testid="dataapi-stats"
      />
      <Select
        allowClear
        placeholder={am.filterApi}
        style={{ width: 260, marginBottom: 12 }}
        value={apiId}
        onChange={(v) => {
          setApiId(v);
          setPaging((p) => ({ ...p, current: 1 }));
        }}
        options={(apis.data?.records ?? []).map((a) => ({ value: a.id, label: `${a.apiName}（${a.apiKey}）` }))}
      />
      <Table<DataApiCallLog>
        rowKey="id"
        size="small"
        columns={logColumns}
        dataSource={logs.data?.records ?? []}
        loading={logs.isFetching}
        locale={{ emptyText: am.noLogs }}
        data-testid="dataapi-logs"
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: logs.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (current, size) => setPaging({ current, size }),
        }}
      />
    </>
  );
}
