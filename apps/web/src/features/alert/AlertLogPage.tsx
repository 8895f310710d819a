import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ALERT_STATE_LABELS, NOTIFY_TYPE_LABELS, type AlertCheckLog, type AlertState } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { alertKeys, fetchAlertLogs } from './api.ts';
import { alm } from './messages.ts';
import { CheckRows } from './CheckRows.tsx';

const CHANNEL_LABELS: Record<string, string> = { ...NOTIFY_TYPE_LABELS, sms: '短信', push: '第三方推送' };

/** 预警日志 (/newbi/warning/log?alertId=): every check — window, rows, state, why it notified, each channel's send. */
export function AlertLogPage() {
  const [params] = useSearchParams();
  const alertId = Number(params.get('alertId')) || undefined;
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const logs = useQuery({
    queryKey: [...alertKeys.logs(alertId, paging.current), paging.size],
    queryFn: () => fetchAlertLogs(alertId, paging.current, paging.size),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.records.some((r) => r.status === 'running') ? 3000 : false),
  });
  const columns: TableColumnsType<AlertCheckLog> = [
    { title: alm.name, dataIndex: 'alertName', ellipsis: true },
    { title: alm.slot, key: 'slot', width: 170, render: (_, r) => formatDateTime(r.slot) },
    { title: alm.window, key: 'window', width: 200, render: (_, r) => (r.windowStart ? `${r.windowStart} 至 ${r.windowEnd}` : alm.never) },
    { title: alm.rows, dataIndex: 'rowCount', width: 70 },
    {
      title: alm.state,
      key: 'state',
      width: 110,
      render: (_, r) =>
        r.status === 'done' && r.state ? (
          <Tag color={r.state === 'firing' ? 'red' : 'green'}>{ALERT_STATE_LABELS[r.state as AlertState]}</Tag>
        ) : (
          <Tag color={r.status === 'failed' ? 'error' : 'processing'}>{alm.checkStatus[r.status]}</Tag>
        ),
    },
    { title: alm.reason, key: 'reason', width: 100, render: (_, r) => (r.notifyReason ? alm.reasons[r.notifyReason] : alm.never) },
    {
      title: alm.channels,
      key: 'channels',
      render: (_, r) => (
        <Space size={4} wrap>
          {r.channels.map((c) => (
            <Tooltip key={`${c.channel}:${c.recipient}`} title={c.errMsg ?? c.recipient}>
              <Tag color={c.status === 'sent' ? 'success' : c.status === 'failed' ? 'error' : 'processing'}>
                {CHANNEL_LABELS[c.channel] ?? c.channel} {alm.sendStatus[c.status]}
              </Tag>
            </Tooltip>
          ))}
        </Space>
      ),
    },
    { title: alm.error, dataIndex: 'errMsg', ellipsis: true },
    { title: alm.duration, dataIndex: 'durationMs', width: 100 },
  ];
  return (
    <PageContainer
      title={alm.pageLog}
      extra={
        <Link to="/newbi/warning">
          <Button>{alm.back}</Button>
        </Link>
      }
    >
      <Table<AlertCheckLog>
        rowKey="id"
        size="middle"
        loading={logs.isFetching}
        columns={columns}
        dataSource={logs.data?.records ?? []}
        expandable={{ rowExpandable: (r) => (r.rowCount ?? 0) > 0, expandedRowRender: (r) => <CheckRows checkId={r.id} /> }}
        pagination={{ current: paging.current, pageSize: paging.size, total: logs.data?.total ?? 0, onChange: (current, size) => setPaging({ current, size }) }}
      />
    </PageContainer>
  );
}
