import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, DatePicker, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import type { PullLog } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { cdpKeys, fetchJoin, fetchLogs, fetchTasks } from './api.ts';
import { cm } from './messages.ts';

type Range = [Dayjs, Dayjs];
const defaultRange = (): Range => [dayjs().subtract(1, 'month').startOf('day'), dayjs().endOf('day')];

/** 拉取日志 (/cdp/join/log?id=&taskId=): interface (all or one), datetime range (one month ago to today), search, paged table. */
export function JoinLogPage() {
  const [params] = useSearchParams();
  const applyId = Number(params.get('id'));
  const initialTask = Number(params.get('taskId')) || undefined;
  const [taskId, setTaskId] = useState<number | undefined>(initialTask);
  const [range, setRange] = useState<Range>(defaultRange);
  const [query, setQuery] = useState({ taskId: initialTask, range: defaultRange(), current: 1, size: 10 });
  const app = useQuery({ queryKey: cdpKeys.join(applyId), queryFn: () => fetchJoin(applyId), enabled: applyId > 0 });
  const tasks = useQuery({ queryKey: cdpKeys.tasks(applyId), queryFn: () => fetchTasks(applyId), enabled: applyId > 0 });
  const request = {
    applyId,
    current: query.current,
    size: query.size,
    ...(query.taskId ? { taskId: query.taskId } : {}),
    startDate: query.range[0].toISOString(),
    endDate: query.range[1].toISOString(),
  };
  const logs = useQuery({ queryKey: cdpKeys.logs(request), queryFn: () => fetchLogs(request), enabled: applyId > 0, placeholderData: keepPreviousData });
  const columns: TableColumnsType<PullLog> = [
    { key: 'time', title: cm.createTime, width: 180, render: (_, r) => formatDateTime(r.createTime) },
    { key: 'app', title: cm.appName, dataIndex: 'appName' },
    { key: 'interface', title: cm.interface, dataIndex: 'interfaceName' },
    { key: 'amount', title: cm.amount, dataIndex: 'amount', align: 'right', width: 90 },
    {
      key: 'result',
      title: cm.result,
      width: 90,
      render: (_, r) => (r.result ? <Tag color="success">{cm.normal}</Tag> : <Tag color="error">{cm.abnormal}</Tag>),
    },
    { key: 'reason', title: cm.failReason, dataIndex: 'failReason', ellipsis: true },
  ];
  return (
    <PageContainer title={app.data ? `${cm.pageLog} · ${app.data.appName}` : cm.pageLog}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={cm.interface}
          style={{ width: 180 }}
          value={taskId ?? 0}
          onChange={(v) => setTaskId(v || undefined)}
          options={[{ value: 0, label: cm.allInterfaces }, ...(tasks.data?.records ?? []).map((t) => ({ value: t.id, label: t.interfaceName }))]}
        />
        <DatePicker.RangePicker showTime value={range} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        <Button type="primary" icon={<SearchOutlined />} onClick={() => setQuery((q) => ({ ...q, taskId, range, current: 1 }))}>
          {cm.search}
        </Button>
      </Space>
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={logs.data?.records ?? []}
        loading={logs.isFetching && !logs.data}
        pagination={{
          current: query.current,
          pageSize: query.size,
          total: logs.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: ['10', '20', '50', '100'],
          onChange: (current, size) => setQuery((q) => ({ ...q, current, size })),
        }}
      />
    </PageContainer>
  );
}
