import { useState, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import { App, Button, Input, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { CopyOutlined, DeleteOutlined, PauseCircleOutlined, PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pptRoutes, type ShareLink } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { copyText, deleteShareLink, fetchShareLinks, formatDateTime, shareKeys, updateShareLink, type ShareListParams } from './api.ts';
import { sm } from './messages.ts';
import './share.css';

const PAGE_SIZES = [10, 20, 50, 100];

/** Where the shared content opens for its owner. */
const previewPath = (link: ShareLink) => (link.dataType === 'ppt' ? pptRoutes.view(link.dataId) : `/newbi/preview/${link.dataId}`);

function StatusTag({ link }: { link: ShareLink }) {
  if (!link.enabled) return <Tag>{sm.statusOff}</Tag>;
  if (link.expired) return <Tag color="orange">{sm.statusExpired}</Tag>;
  return <Tag color="green">{sm.statusOn}</Tag>;
}

/**
 * 我的分享 (/newbi/mine/share): the share links I made (administrators: everyone's), newest
 * first, searchable by title: 复制 the address, 停用 / 启用, 删除.
 */
export function ShareListPage() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const isAdmin = useUserInfo().data?.isAdministrator === true;
  const [params, setParams] = useState<ShareListParams>({ current: 1, size: 10 });
  const links = useQuery({ queryKey: shareKeys.list(params), queryFn: () => fetchShareLinks(params), placeholderData: keepPreviousData, staleTime: 0 });
  const records = links.data?.records ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: shareKeys.all });

  const toggle = useMutation({
    mutationFn: (link: ShareLink) => updateShareLink(link.id, { enabled: !link.enabled }),
    onSuccess: async (result) => {
      notifySuccess(result.msg || sm.updated);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (link: ShareLink) => deleteShareLink(link.id),
    onSuccess: async (result) => {
      notifySuccess(result.msg || sm.deleted);
      if (params.current > 1 && records.length === 1) setParams((p) => ({ ...p, current: p.current - 1 }));
      await refresh();
    },
  });
  const confirmRemove = (link: ShareLink) =>
    modal.confirm({
      title: sm.confirmTitle,
      content: sm.confirmDelete,
      okText: sm.confirm,
      cancelText: sm.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(link).catch(() => undefined),
    });
  const copy = async (link: ShareLink) => {
    if (await copyText(link.shortLink)) void message.success(sm.copied);
    else void message.error(sm.copyFailed);
  };

  const columns: TableColumnsType<ShareLink> = [
    {
      title: sm.colTitle,
      key: 'title',
      ellipsis: true,
      render: (_, link) => (
        <Tooltip title={link.shortLink}>
          <Link to={previewPath(link)}>{link.visualDataTitle}</Link>
        </Tooltip>
      ),
    },
    { title: sm.colType, key: 'type', width: 110, render: (_, link) => sm.dataTypeLabels[link.dataType] },
    { title: sm.colPurpose, dataIndex: 'purpose', key: 'purpose', ellipsis: true, render: (purpose: string) => purpose || '-' },
    {
      title: sm.colLinkType,
      key: 'linkType',
      width: 100,
      render: (_, link) => <Tag color={link.linkType === 1 ? 'blue' : 'purple'}>{sm.linkTypeLabels[link.linkType]}</Tag>,
    },
    { title: sm.colPassword, key: 'password', width: 70, render: (_, link) => (link.hasPassword ? sm.hasPassword : sm.noPassword) },
    { title: sm.colExpiry, key: 'expiry', width: 150, render: (_, link) => (link.expireTime ? formatDateTime(link.expireTime) : sm.forever) },
    { title: sm.colStatus, key: 'status', width: 90, render: (_, link) => <StatusTag link={link} /> },
    ...(isAdmin
      ? [{ title: sm.colCreator, key: 'creator', width: 110, ellipsis: true, render: (_: unknown, link: ShareLink) => link.createUserName ?? '-' }]
      : []),
    { title: sm.colCreated, key: 'createTime', width: 150, render: (_, link) => formatDateTime(link.createTime) },
    {
      title: sm.colActions,
      key: 'actions',
      width: 210,
      render: (_, link) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<CopyOutlined />} onClick={() => void copy(link)} data-testid="share-row-copy">
            {sm.copyShort}
          </Button>
          <Button
            type="link"
            size="small"
            icon={link.enabled ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
            onClick={() => toggle.mutate(link)}
            data-testid="share-row-toggle"
          >
            {link.enabled ? sm.disable : sm.enable}
          </Button>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmRemove(link)} data-testid="share-row-delete">
            {sm.delete}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={sm.pageTitle} description={isAdmin ? sm.pageDescAdmin : sm.pageDesc}>
      <div className="table-toolbar">
        <Input.Search
          placeholder={sm.titleSearch}
          aria-label={sm.titleSearch}
          allowClear
          style={{ width: 260 }}
          onSearch={(title) => setParams((p) => ({ ...p, current: 1, title: title.trim() || undefined }))}
          data-testid="share-search"
        />
        <Button icon={<ReloadOutlined />} onClick={() => void links.refetch()}>
          {sm.refresh}
        </Button>
      </div>
      <Table<ShareLink>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={records}
        loading={links.isLoading}
        locale={{ emptyText: sm.empty }}
        data-testid="share-links"
        onRow={(link) => ({ 'data-testid': 'share-row', 'data-code': link.code }) as HTMLAttributes<HTMLElement>}
        pagination={{
          current: params.current,
          pageSize: params.size,
          total: links.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: sm.total,
          onChange: (current, size) => setParams((p) => ({ ...p, current: size !== p.size ? 1 : current, size })),
        }}
      />
    </PageContainer>
  );
}
