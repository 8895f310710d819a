import { App, Button, Space, Table, Tag, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, MobileOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { App as AppRecord } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { appKeys, deleteApp, fetchApps } from './api.ts';
import { MenuIcon } from './menu-icons.tsx';
import { am } from './messages.ts';
import { appEditPath, mobileAppPath } from './paths.ts';
import './app.css';

/** 应用管理: the apps the caller may edit (administrators all, others their own). */
export function AppListPage() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: appKeys.list, queryFn: fetchApps, staleTime: 0 });
  const remove = useMutation({
    mutationFn: deleteApp,
    onSuccess: (result) => {
      notifySuccess(result.msg || am.deleted);
      void queryClient.invalidateQueries({ queryKey: appKeys.all });
    },
    onError: notifyError,
  });
  const columns: TableColumnsType<AppRecord> = [
    {
      title: am.appName,
      dataIndex: 'appName',
      render: (name: string, app) => (
        <Space>
          {app.appIcon ? <img className="app-icon-small" src={app.appIcon} alt="" /> : <MenuIcon name={null} />}
          <a onClick={() => void navigate(appEditPath(app.appId))}>{name}</a>
        </Space>
      ),
    },
    { title: am.appDescription, dataIndex: 'appDescription', ellipsis: true },
    {
      title: am.publishStatus,
      dataIndex: 'publishStatus',
      width: 100,
      render: (s: number) => (s === 1 ? <Tag color="green">{am.published}</Tag> : <Tag>{am.unpublished}</Tag>),
    },
    { title: am.menuShowType, dataIndex: 'menuShowType', width: 110, render: (t: string) => (t === '2' ? am.showPopup : am.showTop) },
    { title: am.creator, dataIndex: 'createUserName', width: 120 },
    { title: am.updateTime, dataIndex: 'updateTime', width: 170, render: (t: string) => formatDateTime(t) },
    {
      title: am.actions,
      width: 260,
      render: (_, app) => (
        <Space size={0}>
          <Button type="link" icon={<EditOutlined />} onClick={() => void navigate(appEditPath(app.appId))}>
            {am.edit}
          </Button>
          <Button type="link" icon={<MobileOutlined />} href={mobileAppPath(app.appId)} target="_blank">
            {am.preview}
          </Button>
          <Button
            type="link"
            danger
            icon={<DeleteOutlined />}
            onClick={() =>
              modal.confirm({
                title: am.deleteAppConfirm,
                content: am.deleteAppHint,
                okText: am.ok,
                cancelText: am.cancel,
                onOk: () => remove.mutateAsync(app.appId),
              })
            }
          >
            {am.remove}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer
      title={am.page}
      extra={
        <Button type="primary" icon={<PlusOutlined />} data-testid="app-new" onClick={() => void navigate(appEditPath())}>
          {am.newApp}
        </Button>
      }
    >
      <Table<AppRecord>
        rowKey="appId"
        data-testid="app-table"
        loading={apps.isLoading}
        columns={columns}
        dataSource={apps.data ?? []}
        pagination={false}
        locale={{ emptyText: am.empty }}
      />
    </PageContainer>
  );
}
