import { useMemo, useState } from 'react';
import { App, Avatar, Badge, Button, Card, Input, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined, UserOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { USER_STATUS, type User } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDate, formatDateTime } from '../../shared/time.ts';
import { useUserInfo } from '../../shared/session.ts';
import { fetchDepartments, fetchRoles, fetchUsers, orgKeys, setUserStatus } from './api.ts';
import { DeptTreePanel } from './DeptTreePanel.tsx';
import { ResetPasswordModal } from './ResetPasswordModal.tsx';
import { indexTree } from './tree.ts';
import { UserFormModal, type UserTarget } from './UserFormModal.tsx';

const PAGE_SIZES = [10, 20, 50, 100];

export function UsersPage() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const { data: me } = useUserInfo();
  const [deptId, setDeptId] = useState(0);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [target, setTarget] = useState<UserTarget | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);

  const query = { current: page.current, size: page.size, keyword: keyword || undefined, deptId: deptId || undefined };
  const users = useQuery({ queryKey: orgKeys.users(query), queryFn: () => fetchUsers(query), placeholderData: keepPreviousData, staleTime: 0 });
  const depts = useQuery({ queryKey: orgKeys.departments, queryFn: fetchDepartments });
  const roles = useQuery({ queryKey: orgKeys.roles, queryFn: fetchRoles });
  const roleNames = useMemo(() => indexTree(roles.data ?? []), [roles.data]);

  const status = useMutation({
    mutationFn: ({ id, to }: { id: number; to: 0 | 1 }) => setUserStatus(id, to),
    onSuccess: async (_, { to }) => {
      notifySuccess(to === USER_STATUS.enabled ? msg.userEnabled : msg.userDisabled);
      await queryClient.invalidateQueries({ queryKey: orgKeys.usersAll });
    },
  });

  const toggleStatus = (user: User) => {
    const to = user.status === USER_STATUS.enabled ? USER_STATUS.disabled : USER_STATUS.enabled;
    modal.confirm({
      title: t.confirmTitle,
      content: to === USER_STATUS.disabled ? t.confirmDisable(user.name) : t.confirmEnable(user.name),
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: to === USER_STATUS.disabled },
      onOk: () => status.mutateAsync({ id: user.id, to }).catch(() => undefined),
    });
  };

  return (
    <PageContainer
      title={t.pageUsers}
      description={t.usersDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ deptId: deptId || undefined })}>
          {t.addUser}
        </Button>
      }
    >
      <div className="split-layout">
        <Card title={t.deptTree} className="split-side" size="small">
          <DeptTreePanel
            depts={depts.data ?? []}
            value={deptId}
            onChange={(id) => {
              setDeptId(id);
              setPage((p) => ({ ...p, current: 1 }));
            }}
          />
        </Card>
        <Card title={t.userList} className="split-main" styles={{ body: { padding: 16 } }}>
          <div className="table-toolbar">
            <Input.Search
              className="table-search"
              placeholder={t.userSearch}
              allowClear
              enterButton={t.search}
              onSearch={(v) => {
                setKeyword(v.trim());
                setPage((p) => ({ ...p, current: 1 }));
              }}
            />
          </div>
          <Table<User>
            rowKey="id"
            loading={users.isFetching}
            dataSource={users.data?.records ?? []}
            scroll={{ x: 900 }}
            pagination={{
              current: page.current,
              pageSize: page.size,
              total: users.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES.map(String),
              showTotal: t.total,
              onChange: (current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size })),
            }}
            columns={[
              {
                title: t.name,
                key: 'name',
                fixed: 'left',
                width: 180,
                render: (_, u) => (
                  <Space>
                    <Avatar size={32} src={u.avatar || undefined} icon={<UserOutlined />} className="cell-avatar" />
                    <span>
                      <div className="cell-strong">{u.name}</div>
                      <Typography.Text type="secondary" className="cell-sub">
                        {u.realName ? `${u.account} · ${u.realName}` : u.account}
                      </Typography.Text>
                    </span>
                  </Space>
                ),
              },
              { title: t.dept, dataIndex: 'deptName', key: 'deptName', width: 120, ellipsis: true, render: (v: string | null) => v || '-' },
              {
                title: t.roles,
                dataIndex: 'roleIds',
                key: 'roles',
                render: (ids: number[], u) => (
                  <Space size={[4, 4]} wrap>
                    {u.isAdministrator && <Tag color="gold">{t.administrator}</Tag>}
                    {ids.map((id) => (
                      <Tag key={id}>{roleNames.get(id)?.roleName ?? id}</Tag>
                    ))}
                    {!u.isAdministrator && ids.length === 0 && '-'}
                  </Space>
                ),
              },
              { title: t.phone, dataIndex: 'phone', key: 'phone', width: 124, render: (v: string | null) => v || '-' },
              {
                title: t.status,
                dataIndex: 'status',
                key: 'status',
                width: 84,
                render: (s: number) =>
                  s === USER_STATUS.enabled ? <Badge status="success" text={t.statusEnabled} /> : <Badge status="default" text={t.statusDisabled} />,
              },
              {
                title: t.createTime,
                dataIndex: 'createTime',
                key: 'createTime',
                width: 112,
                render: (v: string) => <span title={formatDateTime(v)}>{formatDate(v)}</span>,
              },
              {
                title: t.actions,
                key: 'actions',
                fixed: 'right',
                width: 180,
                render: (_, u) => (
                  <Space size={0} className="row-actions">
                    <Button type="link" size="small" onClick={() => setTarget({ record: u })}>
                      {t.edit}
                    </Button>
                    <Button type="link" size="small" onClick={() => setResetting(u)}>
                      {t.resetPassword}
                    </Button>
                    <Button type="link" size="small" danger={u.status === USER_STATUS.enabled} disabled={u.id === me?.id} onClick={() => toggleStatus(u)}>
                      {u.status === USER_STATUS.enabled ? t.disabled : t.enabled}
                    </Button>
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      </div>
      <UserFormModal target={target} depts={depts.data ?? []} roles={roles.data ?? []} onClose={() => setTarget(null)} />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </PageContainer>
  );
}
