import { useState } from 'react';
import { App, Button, Card, Input, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined, TableOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { DatasetListItem, TableType } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { datasetKeys, deleteDataset, editorPath, fetchCategories, fetchDatasets } from './api.ts';
import { ALL_CATEGORIES, categoryName, CategoryTree } from './CategoryTree.tsx';
import { NewDatasetModal } from './NewDatasetModal.tsx';
import { UploadFileButton } from './UploadFileButton.tsx';
import { em } from './editor/messages.ts';
import './dataset.css';

const PAGE_SIZES = [10, 20, 50, 100];
export const TABLE_TYPE_LABELS: Record<TableType, string> = { LOGIC: t.dsetTypeLogic, PHYSICS: t.dsetTypePhysics };

/** yyyy-MM-dd HH:mm of an ISO time, on the installation's clock (shared/time.ts). */
export const formatTime = (iso: string): string => formatDateTime(iso, 'minute');

/** 数据集 (spec 2 §2, §5 "Dataset", §7): the datasets the caller may see, by category. */
export function DatasetListPage() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // ?ws= opens a category: the editor's 返回 brings the user back to the one they came from.
  const [params] = useSearchParams();
  const [categoryId, setCategoryId] = useState(() => categoryFromAddress(params.get('ws')));
  const [cubeName, setCubeName] = useState('');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [creating, setCreating] = useState(false);

  const categories = useQuery({ queryKey: datasetKeys.categories, queryFn: fetchCategories, staleTime: 0 });
  const query = { current: page.current, size: page.size, workspaceId: categoryId || undefined, cubeName: cubeName || undefined };
  const list = useQuery({ queryKey: datasetKeys.list(query), queryFn: () => fetchDatasets(query), placeholderData: keepPreviousData, staleTime: 0 });
  const records = list.data?.records ?? [];
  const allCategories = categories.data ?? [];

  const remove = useMutation({
    mutationFn: deleteDataset,
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.deleted);
      if (page.current > 1 && records.length === 1) setPage((p) => ({ ...p, current: p.current - 1 }));
      await queryClient.invalidateQueries({ queryKey: datasetKeys.listAll });
    },
  });

  const confirmRemove = (d: DatasetListItem) =>
    modal.confirm({
      title: t.confirmTitle,
      content: t.confirmDelete,
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(d.id).catch(() => undefined),
    });

  const selectCategory = (id: number) => {
    setCategoryId(id);
    setPage((p) => ({ ...p, current: 1 }));
  };

  return (
    <PageContainer
      title={t.pageDataset}
      description={t.datasetDesc}
      extra={
        <Space>
          <UploadFileButton categoryId={categoryId} />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="dataset-add">
            {t.dsetAdd}
          </Button>
        </Space>
      }
    >
      <div className="split-layout dset-layout">
        <Card size="small" className="split-side dset-side" title={t.dsetCategories}>
          <CategoryTree categories={allCategories} loading={categories.isFetching} value={categoryId} onChange={selectCategory} editable />
        </Card>
        <Card className="split-main" title={`${t.dsetList} · ${categoryName(allCategories, categoryId)}`} styles={{ body: { padding: 16 } }}>
          <div className="table-toolbar">
            <Input.Search
              className="table-search"
              placeholder={t.dsetSearch}
              allowClear
              enterButton={t.search}
              onSearch={(v) => {
                setCubeName(v.trim());
                setPage((p) => ({ ...p, current: 1 }));
              }}
            />
          </div>
          <Table<DatasetListItem>
            rowKey="id"
            data-testid="dataset-list"
            loading={list.isFetching}
            dataSource={records}
            scroll={{ x: 1000 }}
            locale={{ emptyText: t.dsetEmpty }}
            pagination={{
              current: page.current,
              pageSize: page.size,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES.map(String),
              showTotal: t.total,
              onChange: (current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size })),
            }}
            columns={[
              {
                title: t.dsetName,
                dataIndex: 'cubeName',
                key: 'cubeName',
                width: 220,
                ellipsis: { showTitle: true },
                render: (name: string, d) => (
                  <Space size={6}>
                    <TableOutlined className="dset-name-icon" />
                    <Typography.Link className="cell-strong" onClick={() => void navigate(editorPath({ id: d.id }))}>
                      {name}
                    </Typography.Link>
                  </Space>
                ),
              },
              { title: t.dsetSource, dataIndex: 'dsName', key: 'dsName', width: 160, ellipsis: { showTitle: true } },
              { title: t.dsetCategory, dataIndex: 'workspaceName', key: 'workspaceName', width: 130, ellipsis: { showTitle: true } },
              {
                title: t.dsetType,
                dataIndex: 'tableType',
                key: 'tableType',
                width: 100,
                render: (v: TableType) => <Tag color={v === 'LOGIC' ? 'purple' : 'blue'}>{TABLE_TYPE_LABELS[v]}</Tag>,
              },
              {
                title: t.dsetVisibility,
                dataIndex: 'publicStatus',
                key: 'publicStatus',
                width: 110,
                render: (v: number) => (v === 1 ? <Tag color="green">{t.dsetPublic}</Tag> : <Tag color="orange">{t.dsetGroupOnly}</Tag>),
              },
              { title: t.dsetCreator, dataIndex: 'createUserName', key: 'createUserName', width: 110, render: (v: string | null) => v ?? '-' },
              { title: t.dsetUpdated, dataIndex: 'updateTime', key: 'updateTime', width: 150, render: (v: string) => formatTime(v) },
              {
                title: t.actions,
                key: 'actions',
                fixed: 'right',
                width: 120,
                render: (_, d) => (
                  <Space size={0} className="row-actions">
                    {/* A dataset the user may only read opens read-only: 查看, not 打开. */}
                    <Button type="link" size="small" onClick={() => void navigate(editorPath({ id: d.id }))}>
                      {d.editable ? t.dsetOpen : em.view}
                    </Button>
                    {d.editable && (
                      <Button type="link" size="small" danger onClick={() => confirmRemove(d)}>
                        {t.delete}
                      </Button>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      </div>
      <NewDatasetModal open={creating} categories={allCategories} categoryId={categoryId} onClose={() => setCreating(false)} />
    </PageContainer>
  );
}

/** The category a `ws` parameter names (a positive whole number), else 全部. */
export function categoryFromAddress(ws: string | null): number {
  const id = Number(ws);
  return ws !== null && Number.isInteger(id) && id > 0 ? id : ALL_CATEGORIES;
}
