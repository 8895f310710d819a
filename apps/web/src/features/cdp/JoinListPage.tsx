import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Input, Space, Table, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EMPTY_TIME, JOIN_PAGE_SIZES, type JoinApp } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { cdpKeys, fetchJoins } from './api.ts';
import { cm } from './messages.ts';
import { NewAuthDialog } from './NewAuthDialog.tsx';

const time = (v: string | null) => (v ? formatDateTime(v) : EMPTY_TIME);

/** 平台接入: the join list (joinPage; default 10 a page, filter by appName), each row linking to its log. */
export function JoinListPage() {
  const [params, setParams] = useState<{ current: number; size: number; appName?: string }>({ current: 1, size: JOIN_PAGE_SIZES[0] });
  const [name, setName] = useState('');
  const [authOpen, setAuthOpen] = useState(false);
  const joins = useQuery({ queryKey: cdpKeys.joins(params), queryFn: () => fetchJoins(params), placeholderData: keepPreviousData });
  const columns: TableColumnsType<JoinApp> = [
    {
      key: 'name',
      title: cm.appName,
      render: (_, r) => (
        <Space>
          {r.appIcon && <img src={r.appIcon} alt="" width={24} height={24} style={{ borderRadius: 4 }} />}
          <Link to={`/cdp/join/info?id=${r.id}`}>{r.appName}</Link>
        </Space>
      ),
    },
    { key: 'platform', title: cm.platform, dataIndex: 'platformName' },
    { key: 'type', title: cm.joinType, render: (_, r) => <Tag color="blue">{r.joinType}</Tag> },
    { key: 'status', title: cm.authStatus, render: (_, r) => (r.status === 1 ? <Tag color="success">{cm.authorised}</Tag> : <Tag>{cm.notAuthorised}</Tag>) },
    { key: 'auth', title: cm.authTime, render: (_, r) => time(r.authTime) },
    { key: 'cancel', title: cm.cancelAuthTime, render: (_, r) => time(r.cancelAuthTime) },
    {
      key: 'action',
      title: cm.action,
      render: (_, r) => (
        <Space>
          <Link to={`/cdp/join/info?id=${r.id}`}>{cm.info}</Link>
          <Link to={`/cdp/join/log?id=${r.id}`}>{cm.log}</Link>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer
      title={cm.pageJoin}
      description={cm.pageJoinDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAuthOpen(true)}>
          {cm.newAuth}
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          placeholder={cm.appName}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onPressEnter={() => setParams((p) => ({ ...p, current: 1, appName: name.trim() || undefined }))}
          allowClear
          style={{ width: 240 }}
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={() => setParams((p) => ({ ...p, current: 1, appName: name.trim() || undefined }))}>
          {cm.search}
        </Button>
      </Space>
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={joins.data?.records ?? []}
        loading={joins.isFetching && !joins.data}
        pagination={{
          current: params.current,
          pageSize: params.size,
          total: joins.data?.total ?? 0,
          pageSizeOptions: JOIN_PAGE_SIZES.map(String),
          showSizeChanger: true,
          onChange: (current, size) => setParams((p) => ({ ...p, current, size })),
        }}
      />
      <NewAuthDialog open={authOpen} onClose={() => setAuthOpen(false)} />
    </PageContainer>
  );
}
