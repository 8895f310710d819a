import { useState } from 'react';
import { App, Button, Space, Switch, Table, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFY_TYPE_LABELS,
  SUBSCRIPTION_DATA_TYPE_LABELS,
  SUBSCRIPTION_LOG_PAGE_SIZES,
  WEEKDAY_LABELS,
  subscriptionPreviewPath,
  type Subscription,
} from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { deleteSubscription, fetchSubscriptions, sendSubscriptionNow, setSubscriptionEnabled, subscriptionKeys } from './api.ts';
import { formatDateTimeLabelled } from '../../shared/time.ts';
import { sm } from './messages.ts';
import { SubscriptionDialog } from './SubscriptionDialog.tsx';

/** 我的订阅: the caller's subscriptions (administrators: everyone's) — edit, enable/disable, delete, and 立即发送 for administrators. */
export function SubscriptionList({ isAdministrator }: { isAdministrator: boolean }) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [editing, setEditing] = useState<Subscription | null>(null);
  const list = useQuery({
    queryKey: subscriptionKeys.mine(paging.current, paging.size),
    queryFn: () => fetchSubscriptions(paging.current, paging.size),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
  const toggle = useMutation({ mutationFn: (s: Subscription) => setSubscriptionEnabled(s.id, !s.enabled), onSuccess: refresh, onError: notifyError });
  const remove = useMutation({
    mutationFn: (s: Subscription) => deleteSubscription(s.id),
    onSuccess: async (r) => {
      notifySuccess(r.msg);
      await refresh();
    },
    onError: notifyError,
  });
  const sendNow = useMutation({
    mutationFn: (s: Subscription) => sendSubscriptionNow(s.id),
    onSuccess: (r) => notifySuccess(r.msg),
    onError: notifyError,
  });

  const columns: TableColumnsType<Subscription> = [
    {
      title: sm.colTitle,
      key: 'title',
      ellipsis: true,
      render: (_, s) => (
        <a href={subscriptionPreviewPath(s.dataType, s.dataId)} target="_blank" rel="noreferrer">
          {s.notifyTitle}
        </a>
      ),
    },
    { title: sm.subTitle, dataIndex: 'subTitle', ellipsis: true },
    { title: sm.colType, key: 'type', width: 90, render: (_, s) => SUBSCRIPTION_DATA_TYPE_LABELS[s.dataType] },
    { title: sm.colNotify, key: 'notify', width: 100, render: (_, s) => NOTIFY_TYPE_LABELS[s.notifyType] },
    {
      title: sm.colPeriod,
      key: 'period',
      width: 130,
      render: (_, s) => sm.periodText(s.triggerPeriod, s.triggerHour, WEEKDAY_LABELS[s.triggerWeekValue] ?? '', s.triggerDayValue),
    },
    {
      title: sm.colNext,
      key: 'next',
      width: 230,
      render: (_, s) => (
        <span data-testid={`subscription-next-${s.id}`} style={{ whiteSpace: 'nowrap' }}>
          {formatDateTimeLabelled(s.nextTime)}
        </span>
      ),
    },
    ...(isAdministrator ? [{ title: sm.colUser, key: 'user', width: 110, render: (_: unknown, s: Subscription) => s.userName ?? '-' }] : []),
    { title: sm.colEnabled, key: 'enabled', width: 70, render: (_, s) => <Switch size="small" checked={s.enabled} onChange={() => toggle.mutate(s)} /> },
    {
      title: sm.colActions,
      key: 'actions',
      width: isAdministrator ? 190 : 110,
      render: (_, s) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(s)}>
            {sm.edit}
          </Button>
          {isAdministrator && (
            <Button type="link" size="small" data-testid={`subscription-send-${s.id}`} onClick={() => sendNow.mutate(s)}>
              {sm.sendNow}
            </Button>
          )}
          <Button
            type="link"
            size="small"
            danger
            onClick={() =>
              modal.confirm({ title: sm.confirmRemove, okButtonProps: { danger: true }, onOk: () => remove.mutateAsync(s).catch(() => undefined) })
            }
          >
            {sm.remove}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <>
      <Table<Subscription>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        locale={{ emptyText: sm.empty }}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: SUBSCRIPTION_LOG_PAGE_SIZES.map(String),
          showTotal: sm.total,
          onChange: (current, size) => setPaging({ current, size }),
        }}
      />
      {editing && (
        <SubscriptionDialog
          open
          dataType={editing.dataType}
          dataId={editing.dataId}
          subTitle={editing.subTitle}
          subscription={editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
