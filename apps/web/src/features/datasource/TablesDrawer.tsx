import { useMemo, useState } from 'react';
import { Card, Col, Drawer, Empty, Input, Row, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { DataSource, DataSourceColumn, DataSourceTable, ViewDataType } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';
import { dataSourceKeys, fetchColumns, fetchTables } from './api.ts';

const VIEW_TYPE: Record<ViewDataType, { label: string; color: string }> = {
  STRING: { label: t.viewTypeString, color: 'blue' },
  NUMBER: { label: t.viewTypeNumber, color: 'green' },
  DATETIME: { label: t.viewTypeDatetime, color: 'purple' },
};

const keyOf = (table: Pick<DataSourceTable, 'schema' | 'name'>) => `${table.schema}.${table.name}`;
const dash = (v: string) => (v ? v : <Typography.Text type="secondary">-</Typography.Text>);

/** Whether a table matches the filter text by name or comment, ignoring case. */
export function matchesTable(table: DataSourceTable, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  return f === '' || table.name.toLowerCase().includes(f) || table.comment.toLowerCase().includes(f);
}

/** The tables and views of one source with their comments; a click shows the table's columns. */
export function TablesDrawer({ source, onClose }: { source: DataSource | null; onClose: () => void }) {
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<DataSourceTable | null>(null);
  const id = source?.id ?? 0;
  const tables = useQuery({ queryKey: dataSourceKeys.tables(id), queryFn: () => fetchTables(id), enabled: source !== null, staleTime: 0 });
  const columns = useQuery({
    queryKey: dataSourceKeys.columns(id, picked?.schema ?? '', picked?.name ?? ''),
    queryFn: () => fetchColumns(id, picked!),
    enabled: source !== null && picked !== null,
  });
  const visible = useMemo(() => (tables.data ?? []).filter((table) => matchesTable(table, filter)), [tables.data, filter]);
  // One schema: no need to show it in front of every name.
  const oneSchema = new Set((tables.data ?? []).map((table) => table.schema)).size <= 1;

  return (
    <Drawer
      open={source !== null}
      title={source ? t.dsTablesTitle(source.dsDb) : ''}
      size={1080}
      destroyOnHidden
      onClose={onClose}
      afterOpenChange={(open) => {
        if (!open) {
          setFilter('');
          setPicked(null);
        }
      }}
      styles={{ body: { padding: 16 } }}
    >
      <Row gutter={16} className="ds-tables-layout">
        <Col span={11}>
          <Card size="small" title={t.dsTableList} extra={<Typography.Text type="secondary">{t.dsTableCount(tables.data?.length ?? 0)}</Typography.Text>}>
            <Input.Search className="ds-table-filter" placeholder={t.dsTableSearch} allowClear onChange={(e) => setFilter(e.target.value)} />
            <Table<DataSourceTable>
              data-testid="ds-tables"
              rowKey={keyOf}
              size="small"
              loading={tables.isFetching}
              dataSource={visible}
              pagination={false}
              scroll={{ y: 'calc(100vh - 250px)' }}
              rowClassName={(row) => ['dict-row-clickable', picked && keyOf(picked) === keyOf(row) ? 'dict-row-active' : ''].join(' ')}
              onRow={(row) => ({ onClick: () => setPicked(row) })}
              columns={[
                {
                  title: t.dsTableName,
                  key: 'name',
                  ellipsis: { showTitle: true },
                  render: (_, row) => <span className="mono-text">{oneSchema ? row.name : keyOf(row)}</span>,
                },
                { title: t.dsTableComment, dataIndex: 'comment', key: 'comment', ellipsis: { showTitle: true }, render: dash },
                {
                  title: t.dsTableKind,
                  dataIndex: 'kind',
                  key: 'kind',
                  width: 64,
                  align: 'center',
                  render: (kind: DataSourceTable['kind']) => (kind === 'VIEW' ? <Tag color="orange">{t.dsKindView}</Tag> : <Tag>{t.dsKindTable}</Tag>),
                },
              ]}
            />
          </Card>
        </Col>
        <Col span={13}>
          <Card size="small" title={picked ? t.dsColumnsOf(picked.comment ? `${picked.name}（${picked.comment}）` : picked.name) : t.dsColumns}>
            {picked ? (
              <Table<DataSourceColumn>
                data-testid="ds-columns"
                rowKey="name"
                size="small"
                loading={columns.isFetching}
                dataSource={columns.data ?? []}
                pagination={false}
                scroll={{ y: 'calc(100vh - 210px)' }}
                columns={[
                  {
                    title: t.dsColumnName,
                    dataIndex: 'name',
                    key: 'name',
                    ellipsis: { showTitle: true },
                    render: (v: string) => <span className="mono-text">{v}</span>,
                  },
                  { title: t.dsColumnComment, dataIndex: 'comment', key: 'comment', ellipsis: { showTitle: true }, render: dash },
                  {
                    title: t.dsDbType,
                    dataIndex: 'dbType',
                    key: 'dbType',
                    width: 150,
                    ellipsis: { showTitle: true },
                    render: (v: string) => <span className="mono-text">{v}</span>,
                  },
                  {
                    title: t.dsViewType,
                    dataIndex: 'viewDataType',
                    key: 'viewDataType',
                    width: 96,
                    align: 'center',
                    render: (v: ViewDataType) => <Tag color={VIEW_TYPE[v].color}>{VIEW_TYPE[v].label}</Tag>,
                  },
                ]}
              />
            ) : (
              <Empty className="ds-columns-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.dsPickTable} />
            )}
          </Card>
        </Col>
      </Row>
    </Drawer>
  );
}
