import { useState } from 'react';
import { Button, Input, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MarketTask } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { fetchTasks, marketKeys, type TaskListParams } from './api.ts';
import { mk } from './messages.ts';
import { StatsPanel } from './StatsPanel.tsx';
import './market.css';

const TYPE_COLORS: Record<number, string> = { 1: 'blue', 2: 'purple', 3: 'green' };

/** 营销任务统计: the marketing tasks (name, type, push time, channel, audience), each opening its statistics panel. */
export function MarketTasksPage() {
  const [params, setParams] = useState<TaskListParams>({ current: 1, size: 10 });
  const [name, setName] = useState('');
  const [type, setType] = useState<number | undefined>();
  const [open, setOpen] = useState<MarketTask | null>(null);
  const tasks = useQuery({ queryKey: marketKeys.tasks(params), queryFn: () => fetchTasks(params), placeholderData: keepPreviousData });
  const columns: TableColumnsType<MarketTask> = [
    { key: 'name', title: mk.missionName, dataIndex: 'missionName' },
    { key: 'type', title: mk.taskType, render: (_, t) => <Tag color={TYPE_COLORS[t.taskType]}>{t.taskTypeName}</Tag> },
    { key: 'push', title: mk.pushTime, render: (_, t) => formatDateTime(t.pushTime) },
    { key: 'channel', title: mk.channel, dataIndex: 'channelName' },
    { key: 'audience', title: mk.audience, align: 'right', render: (_, t) => t.targetGroupNumber.toLocaleString('zh-CN') },
    {
      key: 'action',
      title: mk.action,
      render: (_, t) => (
        <Button type="link" size="small" onClick={() => setOpen(t)}>
          {mk.stats}
        </Button>
      ),
    },
  ];
  return (
    <PageContainer title={mk.page} description={mk.pageDesc}>
      <div className="market-list">
        <Space wrap style={{ marginBottom: 12 }}>
          <Input placeholder={mk.missionName} value={name} onChange={(e) => setName(e.target.value)} allowClear style={{ width: 240 }} />
          <Select
            placeholder={mk.allTypes}
            allowClear
            value={type}
            onChange={setType}
            style={{ width: 140 }}
            options={Object.entries(mk.types).map(([value, label]) => ({ value: Number(value), label }))}
          />
          <Button
            type="primary"
            icon={<SearchOutlined />}
            onClick={() => setParams({ current: 1, size: params.size, missionName: name.trim() || undefined, taskType: type })}
          >
            {mk.search}
          </Button>
        </Space>
        <Table
          rowKey="taskId"
          size="small"
          columns={columns}
          dataSource={tasks.data?.records ?? []}
          loading={tasks.isFetching && !tasks.data}
          pagination={{
            current: params.current,
            pageSize: params.size,
            total: tasks.data?.total ?? 0,
            onChange: (current, size) => setParams((p) => ({ ...p, current, size })),
          }}
        />
      </div>
      {open && <StatsPanel task={open} onClose={() => setOpen(null)} />}
    </PageContainer>
  );
}
