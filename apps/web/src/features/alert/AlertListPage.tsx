import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { App, Button, Space, Switch, Table, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ALERT_STATE_LABELS, alertCheckRoute, alertEditRoute, type AlertRecord } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { useUserInfo } from '../../shared/session.ts';
import { alertKeys, checkAlertNow, copyAlert, deleteAlert, fetchAlerts, setAlertEnabled } from './api.ts';
import { alm } from './messages.ts';

const when = (instant: string | null) => (instant ? formatDateTime(instant) : alm.never);

/** 预警管理: the caller's alerts (administrators: everyone's), with their state and the last check. */
export function AlertListPage() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const isAdmin = useUserInfo().data?.isAdministrator === true;
  const list = useQuery({
    queryKey: alertKeys.list(paging.current, paging.size),
    queryFn: () => fetchAlerts(paging.current, paging.size),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.all });
  const done = async (r: { msg: string }) => {
    notifySuccess(r.msg);
    await refresh();
  };
  const toggle = useMutation({ mutationFn: (a: AlertRecord) => setAlertEnabled(a.id, a.enableStatus === 1 ? 0 : 1), onSuccess: refresh, onError: notifyError });
  const copy = useMutation({ mutationFn: (a: AlertRecord) => copyAlert(a.id), onSuccess: done, onError: notifyError });
  const remove = useMutation({ mutationFn: (a: AlertRecord) => deleteAlert(a.id), onSuccess: done, onError: notifyError });
  const check = useMutation({ mutationFn: (a: AlertRecord) => checkAlertNow(a.id), onSuccess: done, onError: notifyError });

  const columns: TableColumnsType<AlertRecord> = [
    { title: alm.name, key: 'name', ellipsis: true, render: (_, a) => <Link to={alertEditRoute(a.id)}>{a.name}</Link> },
    { title: alm.dataset, key: 'dataset', ellipsis: true, render: (_, a) => `${a.cubeDataName ?? ''}（${a.datasourceName ?? ''}）` },
    { title: alm.requestFreq, dataIndex: 'requestFreq', width: 120 },
    {
      title: alm.enabled,
      key: 'enabled',
      width: 80,
      render: (_, a) => <Switch size="small" checked={a.enableStatus === 1} onChange={() => toggle.mutate(a)} data-testid={`alert-enabled-${a.id}`} />,
    },
    { title: alm.lastCheck, key: 'lastCheck', width: 170, render: (_, a) => when(a.lastCheckTime) },
    { title: alm.state, key: 'state', width: 90, render: (_, a) => <Tag color={a.state === 'firing' ? 'red' : 'green'}>{ALERT_STATE_LABELS[a.state]}</Tag> },
    { title: alm.lastFired, key: 'lastFired', width: 170, render: (_, a) => when(a.lastFiredTime) },
    {
      title: alm.actions,
      key: 'actions',
      width: 260,
      render: (_, a) => (
        <Space size={4} wrap>
          <Button type="link" size="small" onClick={() => navigate(alertEditRoute(a.id))}>
            {alm.edit}
          </Button>
          <Button type="link" size="small" onClick={() => check.mutate(a)} data-testid={`alert-check-${a.id}`}>
            {alm.checkNow}
          </Button>
          <Button type="link" size="small" onClick={() => navigate(alertCheckRoute(a.id))}>
            {alm.log}
          </Button>
          <Button type="link" size="small" onClick={() => copy.mutate(a)}>
            {alm.copy}
          </Button>
          <Button type="link" size="small" danger onClick={() => modal.confirm({ title: alm.confirmDelete, onOk: () => remove.mutateAsync(a) })}>
            {alm.delete}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer
      title={alm.page}
      extra={
        <Space>
          {isAdmin && (
            <Button icon={<SettingOutlined />} onClick={() => navigate('/newbi/warning/settings')} data-testid="alert-settings">
              {alm.settings}
            </Button>
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/newbi/warning/edit')} data-testid="alert-add">
            {alm.add}
          </Button>
        </Space>
      }
    >
      <Table<AlertRecord>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.records ?? []}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (current, size) => setPaging({ current, size }),
        }}
      />
    </PageContainer>
  );
}
