import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { App, Button, Input, Select, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIENCE_REQUEST_FREQ_LABELS, AUDIENCE_STATUS_LABELS, type AudienceListItem } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { audienceKeys, exportAudience, fetchAudienceCategories, fetchAudiences, refreshAudience, removeAudience, setAudienceOnline } from './api.ts';
import { ImportDialog } from './ImportDialog.tsx';
import { aum } from './messages.ts';
import { AUDIENCE_EDIT_PATH } from './paths.ts';
import { RefreshHistory } from './RefreshHistory.tsx';
import './audience.css';

const STATUS_COLORS: Record<string, string> = { new: 'default', running: 'processing', done: 'success', failed: 'error' };

/** 人群管理: audiences by category with size, last computation and status; refresh, CSV export, import. */
export function AudienceListPage() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [q, setQ] = useState<{ current: number; size: number; classifyId?: number; groupName?: string }>({ current: 1, size: 10 });
  const [importing, setImporting] = useState(false);
  const [history, setHistory] = useState<AudienceListItem | null>(null);
  const categories = useQuery({ queryKey: audienceKeys.categories, queryFn: fetchAudienceCategories });
  const list = useQuery({
    queryKey: audienceKeys.list(q),
    queryFn: () => fetchAudiences(q),
    placeholderData: keepPreviousData,
    // While one waits for its job or computes, look again every 2 s.
    refetchInterval: (query) => (query.state.data?.records.some((r) => r.status === 'running' || (r.status === 'new' && r.kind === 'dataset')) ? 2000 : false),
  });
  const reload = () => queryClient.invalidateQueries({ queryKey: audienceKeys.all });
  const done = async (r: { msg: string }) => {
    notifySuccess(r.msg);
    await reload();
  };
  const refresh = useMutation({ mutationFn: (a: AudienceListItem) => refreshAudience(a.id), onSuccess: done, onError: notifyError });
  const online = useMutation({ mutationFn: (a: AudienceListItem) => setAudienceOnline(a.id, a.isOnline === 2 ? 1 : 2), onSuccess: done, onError: notifyError });
  const remove = useMutation({ mutationFn: (a: AudienceListItem) => removeAudience(a.id), onSuccess: done, onError: notifyError });
  const exportCsv = (a: AudienceListItem) => exportAudience(a.id, a.groupName, aum.exportFailed).catch(notifyError);

  const columns: TableColumnsType<AudienceListItem> = [
    {
      title: aum.name,
      key: 'name',
      ellipsis: true,
      render: (_, a) => (
        <>
          {a.kind === 'dataset' ? <Link to={`${AUDIENCE_EDIT_PATH}?id=${a.id}`}>{a.groupName}</Link> : a.groupName}
          {a.isOnline === 2 && <Tag style={{ marginLeft: 6 }}>{aum.stopped}</Tag>}
        </>
      ),
    },
    { title: aum.category, dataIndex: 'classifyName', width: 120, render: (v: string | null) => v ?? '-' },
    { title: aum.kind, dataIndex: 'kind', width: 110, render: (k: string) => aum.kindLabels[k] },
    { title: aum.requestFreq, dataIndex: 'requestFreq', width: 90, render: (f: number) => AUDIENCE_REQUEST_FREQ_LABELS[f] },
    { title: aum.size, dataIndex: 'size', width: 110, align: 'right', render: (n: number | null) => (n === null ? '-' : n.toLocaleString('zh-CN')) },
    { title: aum.refreshedAt, dataIndex: 'refreshedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : aum.never) },
    {
      title: aum.status,
      key: 'status',
      width: 100,
      render: (_, a) => (
        <Tooltip title={a.error ?? undefined}>
          <Tag color={STATUS_COLORS[a.status]} data-testid={`audience-status-${a.id}`}>
            {AUDIENCE_STATUS_LABELS[a.status]}
          </Tag>
        </Tooltip>
      ),
    },
    {
      title: aum.actions,
      key: 'actions',
      width: 320,
      render: (_, a) => (
        <Space size={4} wrap>
          {a.kind !== 'import' && (
            <Button type="link" size="small" onClick={() => refresh.mutate(a)} disabled={a.status === 'running'} data-testid={`audience-refresh-${a.id}`}>
              {aum.refresh}
            </Button>
          )}
          <Button type="link" size="small" onClick={() => exportCsv(a)} disabled={a.size === null} data-testid={`audience-export-${a.id}`}>
            {aum.export}
          </Button>
          <Button type="link" size="small" onClick={() => setHistory(a)} data-testid={`audience-history-${a.id}`}>
            {aum.history}
          </Button>
          {a.kind !== 'import' && (
            <Button type="link" size="small" onClick={() => online.mutate(a)}>
              {a.isOnline === 2 ? aum.start : aum.stop}
            </Button>
          )}
          <Button type="link" size="small" danger onClick={() => modal.confirm({ title: aum.confirmDelete, onOk: () => remove.mutateAsync(a) })}>
            {aum.delete}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer
      title={aum.pageList}
      extra={
        <Space>
          <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="audience-import-open">
            {aum.importGroup}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(AUDIENCE_EDIT_PATH)} data-testid="audience-add">
            {aum.add}
          </Button>
        </Space>
      }
    >
      <Space style={{ marginBottom: 12 }}>
        <Select
          style={{ width: 180 }}
          allowClear
          placeholder={aum.allCategories}
          options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={(classifyId?: number) => setQ((p) => ({ ...p, current: 1, classifyId }))}
        />
        <Input.Search allowClear placeholder={aum.search} onSearch={(groupName) => setQ((p) => ({ ...p, current: 1, groupName }))} style={{ width: 240 }} />
      </Space>
      <Table<AudienceListItem>
        rowKey="id"
        size="middle"
        loading={list.isFetching && !list.data}
        columns={columns}
        dataSource={list.data?.records ?? []}
        pagination={{
          current: q.current,
          pageSize: q.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (current, size) => setQ((p) => ({ ...p, current, size })),
        }}
      />
      <RefreshHistory audience={history} onClose={() => setHistory(null)} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} onDone={() => void reload()} />
    </PageContainer>
  );
}
