import { useState } from 'react';
import { App, Button, Card, Input, Space, Table, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { pptRoutes, PPT_VISUAL_TYPES, type Ppt } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { useUserInfo } from '../../shared/session.ts';
import { deletePpt, fetchPpts, pptKeys } from './api.ts';
import { ALL_PPT_CATEGORIES, PptCategorySide } from './PptCategorySide.tsx';
import { PptPermModal } from './PptPermModal.tsx';
import { pm, pt } from './messages.ts';
import './ppt.css';

const PAGE_SIZE = 20;
type VisualType = 0 | 1 | 2;

/**
 * Where a record plays: favourites with mine=1, archives with archive=1 (spec 1 §2.10 query
 * flags: the viewer then hides 收藏 / 归档 as §6 says).
 */
export function playPath(ppt: Pick<Ppt, 'id' | 'visualType'>, full: boolean): string {
  const base = full ? pptRoutes.full(ppt.id) : pptRoutes.view(ppt.id);
  if (ppt.visualType === PPT_VISUAL_TYPES.favourite) return `${base}?mine=1`;
  if (ppt.visualType === PPT_VISUAL_TYPES.archive) return `${base}?archive=1`;
  return base;
}

function openInNewTab(url: string) {
  window.open(url, '_blank', 'noopener');
}

/** One list: the slideshows (0), or the caller's favourites (1) / archives (2) with their categories on the left. */
function PptTable({ visualType, isAdmin }: { visualType: VisualType; isAdmin: boolean }) {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [ppName, setPpName] = useState('');
  const [current, setCurrent] = useState(1);
  const [cateId, setCateId] = useState(ALL_PPT_CATEGORIES);
  const [permOf, setPermOf] = useState<Ppt | null>(null);
  const params = { visualType, current, size: PAGE_SIZE, ppName, cateId };
  const list = useQuery({ queryKey: pptKeys.list(params), queryFn: () => fetchPpts(params), placeholderData: keepPreviousData, staleTime: 0 });
  const records = list.data?.records ?? [];

  const remove = useMutation({
    mutationFn: deletePpt,
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.deleted);
      if (current > 1 && records.length === 1) setCurrent((c) => c - 1);
      await queryClient.invalidateQueries({ queryKey: pptKeys.listAll });
    },
  });
  const confirmDelete = (p: Ppt) =>
    modal.confirm({
      title: pt.remove,
      content: visualType === 0 ? pt.confirmDelete(p.ppName) : pt.confirmDeleteFavourite(p.ppName),
      okText: pt.ok,
      cancelText: pt.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(p.id).catch(() => undefined),
    });

  const columns: TableColumnsType<Ppt> = [
    {
      title: pt.name,
      dataIndex: 'ppName',
      width: 220,
      ellipsis: true,
      render: (name: string, p) => (
        <Space size={6}>
          <Typography.Link onClick={() => openInNewTab(playPath(p, false))} data-testid="ppt-name">
            {name}
          </Typography.Link>
          {visualType === 0 && p.publicStatus === 1 && <Tag color="green">{pt.public}</Tag>}
        </Space>
      ),
    },
    { title: pt.month, dataIndex: 'ppMonth', width: 90, render: (m: string | null) => m ?? '—' },
    { title: pt.visualCount, key: 'count', width: 80, align: 'right', render: (_, p) => p.visualIds.length },
    {
      title: pt.autoPlay,
      key: 'autoPlay',
      width: 120,
      render: (_, p) =>
        p.settings.autoPlay ? <Tag color="blue">{pt.intervalText(p.settings.interval)}</Tag> : <Typography.Text type="secondary">{pt.no}</Typography.Text>,
    },
    { title: pt.creator, dataIndex: 'createUserName', width: 110, ellipsis: true, render: (n: string | null) => n ?? '—' },
    { title: pt.updateTime, dataIndex: 'updateTime', width: 150, render: (t: string) => formatDateTime(t, 'minute') },
    {
      title: pt.actions,
      key: 'actions',
      fixed: 'right',
      width: visualType === 0 ? 290 : 190,
      render: (_, p) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => openInNewTab(playPath(p, false))}>
            {pt.play}
          </Button>
          <Button type="link" size="small" onClick={() => openInNewTab(playPath(p, true))}>
            {pt.fullPlay}
          </Button>
          {visualType === 0 && p.editable && (
            <Button type="link" size="small" onClick={() => void navigate(`${pptRoutes.edit}?id=${p.id}`)}>
              {pt.edit}
            </Button>
          )}
          {visualType === 0 && isAdmin && (
            <Button type="link" size="small" onClick={() => setPermOf(p)}>
              {pt.perm}
            </Button>
          )}
          {p.editable && (
            <Button type="link" size="small" danger onClick={() => confirmDelete(p)}>
              {pt.remove}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const empty = visualType === 0 ? pt.empty : visualType === 1 ? pt.emptyFavourite : pt.emptyArchive;
  const table = (
    <Card className="split-main ppt-main" styles={{ body: { padding: 16 } }}>
      <div className="table-toolbar">
        <Input.Search
          className="table-search"
          placeholder={pt.search}
          aria-label={pt.search}
          allowClear
          enterButton
          onSearch={(v) => {
            setPpName(v.trim());
            setCurrent(1);
          }}
        />
        {visualType === 0 && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(pptRoutes.edit)} data-testid="ppt-create">
            {pt.create}
          </Button>
        )}
      </div>
      <Table<Ppt>
        rowKey="id"
        size="middle"
        data-testid={`ppt-table-${visualType}`}
        loading={list.isFetching}
        columns={columns}
        dataSource={records}
        locale={{ emptyText: empty }}
        scroll={{ x: visualType === 0 ? 1050 : 950 }}
        pagination={{
          current,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: pt.total,
          onChange: setCurrent,
          hideOnSinglePage: false,
        }}
      />
      <PptPermModal key={permOf?.id ?? 0} ppt={permOf} onClose={() => setPermOf(null)} />
    </Card>
  );
  if (visualType === 0) return table;
  return (
    <div className="split-layout ppt-layout">
      <PptCategorySide
        visualType={visualType}
        value={cateId}
        onChange={(id) => {
          setCateId(id);
          setCurrent(1);
        }}
      />
      {table}
    </div>
  );
}

/** 幻灯片 (/newbi/ppt): the slideshows the user may see, and their own favourites and archives. */
export function PptListPage() {
  const isAdmin = useUserInfo().data?.isAdministrator === true;
  return (
    <PageContainer title={pt.pageTitle} description={pt.pageDesc}>
      <Tabs
        className="ppt-tabs"
        destroyOnHidden
        items={[
          { key: '0', label: pt.tabPpt, children: <PptTable visualType={0} isAdmin={isAdmin} /> },
          { key: '1', label: pt.tabFavourite, children: <PptTable visualType={1} isAdmin={isAdmin} /> },
          { key: '2', label: pt.tabArchive, children: <PptTable visualType={2} isAdmin={isAdmin} /> },
        ]}
      />
    </PageContainer>
  );
}
