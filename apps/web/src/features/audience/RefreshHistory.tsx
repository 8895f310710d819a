import { Modal, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AudienceListItem, AudienceRefreshItem } from '@shutu/contracts';
import { formatDateTime } from '../../shared/time.ts';
import { audienceKeys, fetchRefreshes } from './api.ts';
import { aum, fmt } from './messages.ts';

const COLORS: Record<string, string> = { running: 'processing', done: 'success', failed: 'error' };

/** 计算记录: an audience's computations (audience_refresh) — scheduled slots, saves and 刷新 — newest first. */
export function RefreshHistory({ audience, onClose }: { audience: AudienceListItem | null; onClose: () => void }) {
  const history = useQuery({
    queryKey: audienceKeys.refreshes(audience?.id ?? 0),
    queryFn: () => fetchRefreshes(audience!.id),
    enabled: audience !== null,
    // A computation still running is looked at again every 2 s.
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'running') ? 2000 : false),
  });
  const columns: TableColumnsType<AudienceRefreshItem> = [
    { title: aum.startTime, dataIndex: 'startTime', width: 170, render: (v: string) => formatDateTime(v) },
    { title: aum.slot, dataIndex: 'slot', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: aum.status,
      dataIndex: 'status',
      width: 90,
      render: (s: string) => <Tag color={COLORS[s]}>{aum.historyStatus[s]}</Tag>,
    },
    { title: aum.size, dataIndex: 'size', width: 100, align: 'right', render: (n: number | null) => (n === null ? '-' : n.toLocaleString('zh-CN')) },
    {
      title: aum.duration,
      dataIndex: 'durationMs',
      width: 90,
      align: 'right',
      render: (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`),
    },
    { title: aum.error, dataIndex: 'error', ellipsis: true, render: (e: string | null) => e ?? '' },
  ];
  return (
    <Modal open={audience !== null} title={fmt(aum.historyTitle, { name: audience?.groupName ?? '' })} onCancel={onClose} footer={null} width={860}>
      <Table<AudienceRefreshItem>
        rowKey="id"
        size="small"
        loading={history.isFetching && !history.data}
        columns={columns}
        dataSource={history.data ?? []}
        pagination={false}
        locale={{ emptyText: aum.historyEmpty }}
        data-testid="audience-history"
      />
    </Modal>
  );
}
