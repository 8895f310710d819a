import { useMemo, useState } from 'react';
import { App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RoleNode } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { deleteRole, fetchPermissions, fetchRoles, orgKeys } from './api.ts';
import { RoleFormModal, type RoleTarget } from './RoleFormModal.tsx';
import { toTableTree, treeIds } from './tree.ts';

export function RolesPage() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<RoleTarget | null>(null);
  const [collapsed, setCollapsed] = useState<number[]>([]);
  const roles = useQuery({ queryKey: orgKeys.roles, queryFn: fetchRoles });
  const permissions = useQuery({ queryKey: orgKeys.permissions, queryFn: fetchPermissions, staleTime: Infinity });
  const tree = roles.data ?? [];
  const names = useMemo(() => new Map((permissions.data ?? []).map((p) => [p.code, p.name])), [permissions.data]);

  const remove = useMutation({
    mutationFn: deleteRole,
    onSuccess: async () => {
      notifySuccess(msg.deleted);
      await queryClient.invalidateQueries({ queryKey: orgKeys.roles });
    },
  });

  const confirmRemove = (row: RoleNode) =>
    modal.confirm({
      title: t.confirmTitle,
      content: t.confirmDeleteNamed(row.roleName),
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(row.id).catch(() => undefined),
    });

  return (
    <PageContainer
      title={t.pageRoles}
      description={t.rolesDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ parentId: 0 })}>
          {t.addRole}
        </Button>
      }
    >
      <Card title={t.roleList}>
        <Table<RoleNode>
          rowKey="id"
          loading={roles.isFetching}
          dataSource={toTableTree(tree)}
          pagination={false}
          expandable={{
            expandedRowKeys: treeIds(tree).filter((id) => !collapsed.includes(id)),
            onExpand: (open, row) => setCollapsed((c) => (open ? c.filter((id) => id !== row.id) : [...c, row.id])),
          }}
          columns={[
            { title: t.roleName, dataIndex: 'roleName', key: 'roleName', width: 240 },
            {
              title: t.permissions,
              dataIndex: 'permissions',
              key: 'permissions',
              render: (codes: string[]) =>
                codes.length ? (
                  <Space size={[4, 4]} wrap>
                    {codes.map((c) => (
                      <Tag key={c} color="blue">
                        {names.get(c) ?? c}
                      </Tag>
                    ))}
                  </Space>
                ) : (
                  <Typography.Text type="secondary">{t.noPermissions}</Typography.Text>
                ),
            },
            { title: t.sort, dataIndex: 'sort', key: 'sort', width: 90, align: 'center' },
            {
              title: t.actions,
              key: 'actions',
              width: 220,
              render: (_, row) => (
                <Space size={0} className="row-actions">
                  <Button type="link" size="small" onClick={() => setTarget({ parentId: row.id })}>
                    {t.addChildRole}
                  </Button>
                  <Button type="link" size="small" onClick={() => setTarget({ record: row })}>
                    {t.edit}
                  </Button>
                  <Button type="link" size="small" danger onClick={() => confirmRemove(row)}>
                    {t.delete}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <RoleFormModal target={target} tree={tree} onClose={() => setTarget(null)} />
    </PageContainer>
  );
}
