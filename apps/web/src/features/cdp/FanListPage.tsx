import { useState } from 'react';
import { Avatar, Button, Input, Select, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { FAN_PAGE_ALL, FAN_PAGE_SIZES, SEX_LABELS, type Fan } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { cdpKeys, fetchAccounts, fetchFans, saveFan } from './api.ts';
import { cm } from './messages.ts';

const keyOf = (f: Fan) => `${f.applyId}:${f.openid}`;
const SEX_OPTIONS = Object.entries(SEX_LABELS).map(([value, label]) => ({ value: Number(value), label }));

/** 粉丝列表 (userPage): nickname, sex, headimgurl, edited per row (a local edit; the platform's value stays visible). */
export function FanListPage() {
  const [page, setPage] = useState<{ page: number; size: number; applyId?: number }>({ page: 1, size: FAN_PAGE_SIZES[0] });
  const accounts = useQuery({ queryKey: cdpKeys.accounts, queryFn: fetchAccounts });
  const [editing, setEditing] = useState<{ key: string; nickname: string; sex: number; headimgurl: string } | null>(null);
  const client = useQueryClient();
  const fans = useQuery({ queryKey: cdpKeys.fans(page), queryFn: () => fetchFans(page), placeholderData: keepPreviousData });
  const save = async (f: Fan) => {
    if (!editing) return;
    try {
      const res = await saveFan({ applyId: f.applyId, openid: f.openid, nickname: editing.nickname, sex: editing.sex, headimgurl: editing.headimgurl });
      notifySuccess(res.msg);
      setEditing(null);
      await client.invalidateQueries({ queryKey: ['cdp', 'fans'] });
    } catch (error) {
      notifyError(error);
    }
  };
  const isEditing = (f: Fan) => editing?.key === keyOf(f);
  const platformHint = (changed: boolean, value: string) => (changed ? <Typography.Text type="secondary">{cm.platformValue(value)}</Typography.Text> : null);
  const columns: TableColumnsType<Fan> = [
    {
      key: 'nickname',
      title: cm.nickname,
      render: (_, f) =>
        isEditing(f) ? (
          <Input aria-label={cm.nickname} value={editing!.nickname} maxLength={100} onChange={(e) => setEditing({ ...editing!, nickname: e.target.value })} />
        ) : (
          <Space direction="vertical" size={0}>
            {f.nickname}
            {platformHint(f.nickname !== f.platform.nickname, f.platform.nickname)}
          </Space>
        ),
    },
    {
      key: 'sex',
      title: cm.sex,
      width: 140,
      render: (_, f) =>
        isEditing(f) ? (
          <Select aria-label={cm.sex} value={editing!.sex} options={SEX_OPTIONS} onChange={(sex) => setEditing({ ...editing!, sex })} style={{ width: 100 }} />
        ) : (
          <Space direction="vertical" size={0}>
            {SEX_LABELS[f.sex]}
            {platformHint(f.sex !== f.platform.sex, SEX_LABELS[f.platform.sex] ?? '')}
          </Space>
        ),
    },
    {
      key: 'head',
      title: cm.headimgurl,
      render: (_, f) =>
        isEditing(f) ? (
          <Input
            aria-label={cm.headimgurl}
            value={editing!.headimgurl}
            maxLength={500}
            onChange={(e) => setEditing({ ...editing!, headimgurl: e.target.value })}
          />
        ) : (
          <Tooltip title={f.headimgurl}>
            <Avatar src={f.headimgurl} size="small" />{' '}
            <Typography.Text ellipsis style={{ maxWidth: 260 }}>
              {f.headimgurl}
            </Typography.Text>
          </Tooltip>
        ),
    },
    { key: 'app', title: cm.appName, dataIndex: 'appName', width: 160 },
    {
      key: 'action',
      title: cm.action,
      width: 140,
      render: (_, f) =>
        isEditing(f) ? (
          <Space>
            <Button size="small" type="link" onClick={() => void save(f)}>
              {cm.save}
            </Button>
            <Button size="small" type="link" onClick={() => setEditing(null)}>
              {cm.cancel}
            </Button>
          </Space>
        ) : (
          <Button
            size="small"
            type="link"
            disabled={editing !== null}
            onClick={() => setEditing({ key: keyOf(f), nickname: f.nickname, sex: f.sex, headimgurl: f.headimgurl })}
          >
            {cm.edit}
          </Button>
        ),
    },
  ];
  const sizeOptions = [...FAN_PAGE_SIZES.map((n) => ({ value: n as number, label: `${n} 条/页` })), { value: FAN_PAGE_ALL, label: cm.all }];
  return (
    <PageContainer
      title={cm.pageFans}
      extra={
        <Space>
          <Select
            aria-label={cm.appName}
            value={page.applyId ?? 0}
            options={[{ value: 0, label: cm.allApps }, ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.nickName }))]}
            onChange={(applyId) => setPage((p) => ({ ...p, page: 1, applyId: applyId || undefined }))}
            style={{ width: 180 }}
          />
          <Select
            aria-label={cm.pageSize}
            value={page.size}
            options={sizeOptions}
            onChange={(size) => setPage((p) => ({ ...p, page: 1, size }))}
            style={{ width: 120 }}
          />
        </Space>
      }
    >
      <Table
        rowKey={keyOf}
        size="small"
        columns={columns}
        dataSource={fans.data?.records ?? []}
        loading={fans.isFetching && !fans.data}
        pagination={{
          current: page.page,
          pageSize: page.size,
          total: fans.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (p) => setPage((cur) => ({ ...cur, page: p })),
        }}
      />
    </PageContainer>
  );
}
