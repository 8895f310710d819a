import { useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Input, Modal, Popconfirm, Space, Switch, Table, Tag, type TableColumnsType } from 'antd';
import type { DataApi, DataApiCategory } from '@shutu/contracts';
import { DATA_API_STATUS_LABELS } from '@shutu/contracts';
import { errorText } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { copyDataApi, deleteDataApi, setDataApiStatus } from './api.ts';
import { am } from './messages.ts';

const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'success', 2: 'error' };

/** The editor of an API: type 3 has its own; databases and external URLs the combined one with chart settings. */
export function editorPath(api: Pick<DataApi, 'id' | 'apiType'>): string {
  return api.apiType === 3 ? `/apiedit3?id=${api.id}` : `/apiedit1?id=${api.id}`;
}

interface Props {
  rows: DataApi[];
  total: number;
  loading: boolean;
  categories: DataApiCategory[];
  paging: { current: number; size: number };
  onPage: (current: number, size: number) => void;
  onChanged: () => void;
}

/** The APIs: name, key, type, category, status (with an online switch; 故障 shown red), edit, copy, delete. */
export function DataApiTable({ rows, total, loading, categories, paging, onPage, onChanged }: Props) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [copying, setCopying] = useState<{ api: DataApi; key: string } | null>(null);
  const act = async (run: () => Promise<{ msg: string }>) => {
    try {
      const result = await run();
      message.success(result.msg || am.done);
      onChanged();
    } catch (e) {
      message.error(errorText(e));
    }
  };
  const categoryName = (id: number | null) => categories.find((c) => c.id === id)?.categoryName ?? '-';

  const columns: TableColumnsType<DataApi> = [
    {
      title: am.colName,
      dataIndex: 'apiName',
      width: 220,
      ellipsis: true,
      render: (name: string, api) => <a onClick={() => navigate(editorPath(api))}>{name}</a>,
    },
    { title: am.colKey, dataIndex: 'apiKey', width: 180, ellipsis: true, render: (key: string) => <code>{key}</code> },
    { title: am.colType, key: 'type', width: 100, render: (_, api) => am.typeLabels[api.apiType] },
    { title: am.colCategory, key: 'category', width: 130, ellipsis: true, render: (_, api) => categoryName(api.categoryId) },
    {
      title: am.colStatus,
      key: 'status',
      width: 150,
      render: (_, api) => (
        <Space>
          <Tag color={STATUS_COLORS[api.apiStatus]} data-testid={`dataapi-status-${api.apiKey}`}>
            {DATA_API_STATUS_LABELS[api.apiStatus as 0 | 1 | 2]}
          </Tag>
          <Switch
            size="small"
            checked={api.apiStatus === 1}
            aria-label={api.apiStatus === 1 ? am.offline : am.online}
            onChange={(on) => act(() => setDataApiStatus(api.id, on ? 1 : 0))}
          />
        </Space>
      ),
    },
    { title: am.colUpdated, key: 'updated', width: 170, render: (_, api) => formatDateTime(api.updateTime) },
    {
      title: am.colActions,
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, api) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(editorPath(api))}>
            {am.edit}
          </Button>
          <Button type="link" size="small" onClick={() => setCopying({ api, key: '' })}>
            {am.copy}
          </Button>
          <Popconfirm title={am.deleteConfirm} onConfirm={() => act(() => deleteDataApi(api.id))}>
            <Button type="link" size="small" danger>
              {am.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Table<DataApi>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={loading}
        locale={{ emptyText: am.empty }}
        data-testid="dataapi-table"
        scroll={{ x: 1080 }}
        pagination={{ current: paging.current, pageSize: paging.size, total, showSizeChanger: true, showTotal: am.total, onChange: onPage }}
      />
      <Modal
        open={copying !== null}
        title={am.copyKeyTitle}
        onCancel={() => setCopying(null)}
        onOk={async () => {
          const { api, key } = copying!;
          setCopying(null);
          await act(() => copyDataApi(api.id, key.trim() || undefined));
        }}
        destroyOnHidden
      >
        <Input
          placeholder={am.copyKeyLabel}
          value={copying?.key ?? ''}
          onChange={(e) => setCopying((cur) => (cur ? { ...cur, key: e.target.value } : cur))}
          data-testid="dataapi-copy-key"
        />
      </Modal>
    </>
  );
}
