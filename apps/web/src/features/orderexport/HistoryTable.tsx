import { useState } from 'react';
import { Button, Card, DatePicker, Input, Progress, Space, Table, Tag, type TableColumnsType } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { ORDER_EXPORT_STATUS, type OrderExportTask } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { downloadTask, fetchHistory, orderKeys, type HistoryParams } from './api.ts';
import { om } from './messages.ts';

const FAILED: readonly number[] = [ORDER_EXPORT_STATUS.usersFailed, ORDER_EXPORT_STATUS.extractFailed, ORDER_EXPORT_STATUS.fileFailed];
const statusColor = (s: number) => (s === ORDER_EXPORT_STATUS.fileDone ? 'success' : FAILED.includes(s) ? 'error' : 'processing');

/** The user's tasks, searchable by name and creation date range; download only at status 9. */
export function HistoryTable({ onView }: { onView: (task: OrderExportTask) => void }) {
  const [params, setParams] = useState<HistoryParams>({ current: 1, size: 10 });
  const [name, setName] = useState('');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const history = useQuery({
    queryKey: orderKeys.history(params),
    queryFn: () => fetchHistory(params),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.records.some((t) => t.taskStatus1 < 9 && !FAILED.includes(t.taskStatus1)) ? 3000 : false),
  });
  const download = useMutation({ mutationFn: downloadTask, onSuccess: () => notifySuccess(om.downloaded), onError: notifyError });
  const search = () =>
    setParams({
      current: 1,
      size: params.size,
      mcomment: name.trim() || undefined,
      startTime: range?.[0]?.format('YYYY-MM-DD'),
      endTime: range?.[1]?.format('YYYY-MM-DD'),
    });

  const columns: TableColumnsType<OrderExportTask> = [
    { key: 'name', title: om.colName, render: (_, t) => t.mcomment || `${om.unnamed}（fetch_order_${t.taskId}）` },
    { key: 'rows', title: om.colRows, render: (_, t) => (t.fetchedNums === null ? '—' : t.fetchedNums.toLocaleString('zh-CN')) },
    {
      key: 'status',
      title: om.colStatus,
      render: (_, t) => (
        <Tag color={statusColor(t.taskStatus1)} title={t.errorMsg ?? undefined}>
          {t.statusLabel}
        </Tag>
      ),
    },
    {
      key: 'progress',
      title: om.colProgress,
      render: (_, t) => (
        <Progress
          percent={Math.round((t.taskStatus1 / 9) * 100)}
          size="small"
          status={FAILED.includes(t.taskStatus1) ? 'exception' : undefined}
          format={() => om.rows(t.progress)}
        />
      ),
    },
    { key: 'created', title: om.colCreated, render: (_, t) => formatDateTime(t.createTime) },
    { key: 'creator', title: om.colCreator, dataIndex: 'creator' },
    {
      key: 'action',
      title: om.colAction,
      render: (_, t) => (
        <Space size={0}>
          <Button type="link" size="small" disabled={t.taskStatus1 !== 9 || t.fileExpired} onClick={() => onView(t)}>
            {om.view}
          </Button>
          <Button type="link" size="small" icon={<DownloadOutlined />} disabled={t.taskStatus1 !== 9 || t.fileExpired} onClick={() => download.mutate(t)}>
            {om.download}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Card title={om.historyTitle} size="small" className="order-card">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input placeholder={om.colName} value={name} onChange={(e) => setName(e.target.value)} onPressEnter={search} allowClear style={{ width: 200 }} />
        <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} placeholder={[om.createdRange, om.createdRange]} />
        <Button type="primary" icon={<SearchOutlined />} onClick={search}>
          {om.search}
        </Button>
      </Space>
      <Table
        rowKey="taskId"
        size="small"
        columns={columns}
        dataSource={history.data?.records ?? []}
        loading={history.isFetching && !history.data}
        pagination={{
          current: params.current,
          pageSize: params.size,
          total: history.data?.total ?? 0,
          onChange: (current, size) => setParams((p) => ({ ...p, current, size })),
        }}
      />
    </Card>
  );
}
