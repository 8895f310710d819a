import { useState } from 'react';
import { App, Button, Card, Input, Space, Table, Tag, Typography } from 'antd';
import { DatabaseOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataSource, DataSourceType } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { dataSourceKeys, deleteDataSource, fetchDataSources, testSavedDataSource } from './api.ts';
import { DataSourceFormModal, type DataSourceTarget } from './DataSourceFormModal.tsx';
import { TablesDrawer } from './TablesDrawer.tsx';
import './datasource.css';

const PAGE_SIZES = [10, 20, 50, 100];
const TYPE_COLORS: Record<DataSourceType, string> = { duckdb: 'gold', postgres: 'blue', mysql: 'cyan', clickhouse: 'purple' };

/** Where a source lives: host:port/database for servers, the file for DuckDB. */
export function addressOf(d: DataSource): string {
  if (d.type === 'duckdb') return d.path ?? '';
  const where = `${d.host ?? ''}${d.port ? `:${d.port}` : ''}`;
  return d.database ? `${where}/${d.database}` : where;
}

/** 数据源管理 (issue 3 "Connectors"): list, create, edit, delete, test, and browse tables. */
export function DataSourcePage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [target, setTarget] = useState<DataSourceTarget | null>(null);
  const [browsing, setBrowsing] = useState<DataSource | null>(null);
  const [testingId, setTestingId] = useState<number | null>(null);

  const query = { current: page.current, size: page.size, keyword: keyword || undefined };
  const list = useQuery({ queryKey: dataSourceKeys.list(query), queryFn: () => fetchDataSources(query), placeholderData: keepPreviousData, staleTime: 0 });
  const records = list.data?.records ?? [];

  const remove = useMutation({
    mutationFn: deleteDataSource,
    onSuccess: async () => {
      notifySuccess(msg.deleted);
      if (page.current > 1 && records.length === 1) setPage((p) => ({ ...p, current: p.current - 1 }));
      await queryClient.invalidateQueries({ queryKey: dataSourceKeys.all });
    },
  });

  // A failure is shown by the global handler with the server's Chinese message.
  const test = useMutation({
    mutationFn: (d: DataSource) => testSavedDataSource(d.id),
    onMutate: (d) => setTestingId(d.id),
    onSettled: () => setTestingId(null),
    onSuccess: ({ data, msg: title }, d) => {
      void message.success({ content: `${d.dsDb}：${title}，${t.dsTestOk(data.serverVersion, data.elapsedMs)}`, key: `ds-test-${d.id}` });
    },
  });

  const confirmRemove = (d: DataSource) =>
    modal.confirm({
      title: t.confirmTitle,
      content: t.confirmDeleteNamed(d.dsDb),
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(d.id).catch(() => undefined),
    });

  return (
    <PageContainer
      title={t.pageDatasource}
      description={t.datasourceDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({})}>
          {t.dsAdd}
        </Button>
      }
    >
      <Card title={t.dsList} styles={{ body: { padding: 16 } }}>
        <div className="table-toolbar">
          <Input.Search
            className="table-search"
            placeholder={t.dsSearch}
            allowClear
            enterButton={t.search}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
          />
        </div>
        <Table<DataSource>
          rowKey="id"
          data-testid="ds-list"
          loading={list.isFetching}
          dataSource={records}
          scroll={{ x: 1000 }}
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
            { title: t.dsId, dataIndex: 'id', key: 'id', width: 64, align: 'center' },
            {
              title: t.dsName,
              dataIndex: 'dsDb',
              key: 'dsDb',
              width: 220,
              render: (name: string, d) => (
                <Space size={6}>
                  <DatabaseOutlined className="ds-name-icon" />
                  <span className="cell-strong">{name}</span>
                  {d.isBuiltin && <Tag color="gold">{t.dsBuiltin}</Tag>}
                </Space>
              ),
            },
            {
              title: t.dsType,
              dataIndex: 'dsTypeSyl',
              key: 'dsTypeSyl',
              width: 150,
              render: (label: string, d) => <Tag color={TYPE_COLORS[d.type]}>{label}</Tag>,
            },
            {
              title: t.dsAddress,
              key: 'address',
              ellipsis: { showTitle: true },
              render: (_, d) => <span className="mono-text">{addressOf(d) || '-'}</span>,
            },
            {
              title: t.dsRemark,
              dataIndex: 'remark',
              key: 'remark',
              ellipsis: { showTitle: true },
              render: (v: string | null) => (v ? v : <Typography.Text type="secondary">-</Typography.Text>),
            },
            {
              title: t.actions,
              key: 'actions',
              fixed: 'right',
              width: 240,
              render: (_, d) => (
                <Space size={0} className="row-actions">
                  <Button type="link" size="small" loading={testingId === d.id} onClick={() => test.mutate(d)}>
                    {t.dsTest}
                  </Button>
                  <Button type="link" size="small" onClick={() => setBrowsing(d)}>
                    {t.dsTables}
                  </Button>
                  <Button type="link" size="small" onClick={() => setTarget({ record: d })}>
                    {t.edit}
                  </Button>
                  {!d.isBuiltin && (
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
      <DataSourceFormModal target={target} onClose={() => setTarget(null)} />
      <TablesDrawer source={browsing} onClose={() => setBrowsing(null)} />
    </PageContainer>
  );
}
