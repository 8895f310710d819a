import { useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Space } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { MarketTask } from '@shutu/contracts';
import { formatDateTime } from '../../shared/time.ts';
import { DailyStats } from './DailyStats.tsx';
import { FunnelStats } from './FunnelStats.tsx';
import { mk } from './messages.ts';

/** The statistics panel of one task (spec 3 §2): header, a date range from the push time to now with 搜索, and the type's charts and tables. */
export function StatsPanel({ task, onClose }: { task: MarketTask; onClose: () => void }) {
  const [picked, setPicked] = useState<[Dayjs, Dayjs]>([dayjs(task.pushTime), dayjs()]);
  const [range, setRange] = useState<[string, string]>([picked[0].format('YYYYMMDD'), picked[1].format('YYYYMMDD')]);
  return (
    <Drawer open title={`${mk.panelTitle} · ${task.missionName}`} width={1100} onClose={onClose} destroyOnHidden>
      <Descriptions size="small" column={4} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={mk.missionName}>{task.missionName}</Descriptions.Item>
        <Descriptions.Item label={mk.pushTime}>{formatDateTime(task.pushTime)}</Descriptions.Item>
        <Descriptions.Item label={mk.channelId}>{task.channelId}</Descriptions.Item>
        <Descriptions.Item label={mk.audience}>{task.targetGroupNumber.toLocaleString('zh-CN')}</Descriptions.Item>
      </Descriptions>
      <Space style={{ marginBottom: 16 }}>
        <DatePicker.RangePicker allowClear={false} value={picked} onChange={(v) => v?.[0] && v[1] && setPicked([v[0], v[1]])} />
        <Button type="primary" icon={<SearchOutlined />} onClick={() => setRange([picked[0].format('YYYYMMDD'), picked[1].format('YYYYMMDD')])}>
          {mk.search}
        </Button>
      </Space>
      {task.taskType === 2 ? <FunnelStats task={task} start={range[0]} end={range[1]} /> : <DailyStats task={task} start={range[0]} end={range[1]} />}
    </Drawer>
  );
}
