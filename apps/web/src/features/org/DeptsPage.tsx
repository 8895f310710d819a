import { useState } from 'react';
import { App, Button, Card, Space, Table } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DepartmentNode } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { deleteDepartment, fetchDepartments, orgKeys } from './api.ts';
import { DeptFormModal, type DeptTarget } from './DeptFormModal.tsx';
import { toTableTree, treeIds } from './tree.ts';

export function DeptsPage() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<DeptTarget | null>(null);
  const depts = useQuery({ queryKey: orgKeys.departments, queryFn: fetchDepartments });
  const tree = depts.data ?? [];
  const [collapsed, setCollapsed] = useState<number[]>([]);

  const remove = useMutation({
    mutationFn: deleteDepartment,
    onSuccess: async () => {
      notifySuccess(msg.deleted);
      await queryClient.invalidateQueries({ queryKey: orgKeys.departments });
    },
  });

  const confirmRemove = (row: DepartmentNode) =>
    modal.confirm({
      title: t.confirmTitle,
      content: t.confirmDeleteNamed(row.deptName),
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(row.id).catch(() => undefined),
    });

  const expanded = treeIds(tree).filter((id) => !collapsed.includes(id));

  return (
    <PageContainer
      title={t.pageDepts}
      description={t.deptsDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ parentId: 0 })}>
          {t.addDept}
        </Button>
      }
    >
      <Card title={t.deptList}>
        <Table<DepartmentNode>
          rowKey="id"
          loading={depts.isFetching}
          dataSource={toTableTree(tree)}
          pagination={false}
          expandable={{
            expandedRowKeys: expanded,
            onExpand: (open, row) => setCollapsed((c) => (open ? c.filter((id) => id !== row.id) : [...c, row.id])),
          }}
          columns={[
            { title: t.deptName, dataIndex: 'deptName', key: 'deptName' },
            { title: t.sort, dataIndex: 'sort', key: 'sort', width: 120, align: 'center' },
            {
              title: t.actions,
              key: 'actions',
              width: 240,
              render: (_, row) => (
                <Space size={0} className="row-actions">
                  <Button type="link" size="small" onClick={() => setTarget({ parentId: row.id })}>
                    {t.addChildDept}
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
      <DeptFormModal target={target} tree={tree} onClose={() => setTarget(null)} />
    </PageContainer>
  );
}
