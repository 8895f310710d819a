import { useState } from 'react';
import { Button, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ACCESS_TYPES, PLATFORM_TYPES, type PlatformType } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { cdpKeys, deletePlatform, fetchPlatforms } from './api.ts';
import { cm } from './messages.ts';
import { PlatformForm } from './PlatformForm.tsx';

/** 平台类型 (administrators): platform types with their access URL and interfaces. */
export function PlatformTypesPage() {
  const client = useQueryClient();
  const platforms = useQuery({ queryKey: cdpKeys.platforms, queryFn: fetchPlatforms });
  const [editing, setEditing] = useState<PlatformType | null | undefined>(undefined);
  const reload = () => void client.invalidateQueries({ queryKey: cdpKeys.platforms });
  const remove = async (id: number) => {
    try {
      notifySuccess((await deletePlatform(id)).msg);
      reload();
    } catch (error) {
      notifyError(error);
    }
  };
  const columns: TableColumnsType<PlatformType> = [
    { key: 'name', title: cm.platformName, dataIndex: 'platformName' },
    { key: 'type', title: cm.platformType, render: (_, p) => PLATFORM_TYPES[p.platformType as 0 | 1 | 2] },
    { key: 'access', title: cm.accessType, render: (_, p) => <Tag color="blue">{ACCESS_TYPES[p.accessType as 0 | 1 | 2 | 3]}</Tag> },
    { key: 'url', title: cm.accessUrl, dataIndex: 'accessUrl', ellipsis: true },
    { key: 'interfaces', title: cm.interfaces, render: (_, p) => p.interfaces.map((i) => <Tag key={i.id}>{i.interfaceName}</Tag>) },
    { key: 'ticket', title: cm.ticketTime, render: (_, p) => (p.ticketTime ? formatDateTime(p.ticketTime) : '- -') },
    {
      key: 'action',
      title: cm.action,
      render: (_, p) => (
        <Space>
          <Button size="small" type="link" onClick={() => setEditing(p)}>
            {cm.edit}
          </Button>
          <Popconfirm title={cm.deleteConfirm} onConfirm={() => void remove(p.id)}>
            <Button size="small" type="link" danger>
              {cm.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer
      title={cm.pagePlatforms}
      description={cm.pagePlatformsDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
          {cm.add}
        </Button>
      }
    >
      <Table rowKey="id" size="small" columns={columns} dataSource={platforms.data ?? []} loading={platforms.isLoading} pagination={false} />
      {editing !== undefined && <PlatformForm platform={editing} onClose={() => setEditing(undefined)} onSaved={reload} />}
    </PageContainer>
  );
}
