import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, Empty, Input, Listy, Result, Space, Spin, Tag, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { DataSourceGrant, DataSourceTable } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { errorText, notifySuccess } from '../../shared/notify.ts';
import { dataSourceKeys, fetchTables } from '../datasource/api.ts';
import { matchesTable } from '../datasource/TablesDrawer.tsx';
import { saveDataSourceGrant, tableKey } from './api.ts';
import '../datasource/datasource.css';

/** Above this many tables the list renders only the rows in view. */
export const VIRTUAL_FROM = 500;
const LIST_HEIGHT = 480;

/** Ticks every table of `visible` on top of `checked` (全选 after a search ticks only what the search shows). */
export function tickAll(checked: ReadonlySet<string>, visible: readonly DataSourceTable[]): Set<string> {
  const next = new Set(checked);
  for (const table of visible) next.add(tableKey(table));
  return next;
}

/** The write permission's label (issue 28). */
const UPLOAD_ALLOWED = '允许上传文件';

interface Props {
  groupId: number;
  source: Pick<DataSourceGrant, 'datasourceId' | 'dsName' | 'tableNames' | 'writable'>;
  onSaved: () => Promise<void> | void;
}

/** The tables of one source as a checklist: search, 全选, 清空 and 保存 of the group's tables. */
export function TableChecklist({ groupId, source, onSaved }: Props) {
  const id = source.datasourceId;
  const [filter, setFilter] = useState('');
  const [checked, setChecked] = useState<Set<string>>(() => new Set(source.tableNames.map(tableKey)));
  // The grant's write permission: the group's members may upload file tables into the source (issue 28).
  const [writable, setWritable] = useState(source.writable === true);
  const tables = useQuery({ queryKey: dataSourceKeys.tables(id), queryFn: () => fetchTables(id), staleTime: 0, retry: false, meta: { silent: true } });
  const all = useMemo(() => tables.data ?? [], [tables.data]);
  const visible = useMemo(() => all.filter((table) => matchesTable(table, filter)), [all, filter]);
  // Only tables the source still has count and are saved: a dropped table cannot be granted.
  const ticked = useMemo(() => all.filter((table) => checked.has(tableKey(table))), [all, checked]);

  const save = useMutation({
    mutationFn: () =>
      saveDataSourceGrant(
        groupId,
        id,
        ticked.map(({ schema, name }) => ({ schema, name })),
        writable,
      ),
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.saved);
      await onSaved();
    },
  });

  const toggle = (key: string, on: boolean) =>
    setChecked((c) => {
      const next = new Set(c);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const renderRow = (table: DataSourceTable) => {
    const key = tableKey(table);
    return (
      <div data-testid="grant-table" data-table={table.name}>
        <Checkbox className="grant-table-row" checked={checked.has(key)} onChange={(e) => toggle(key, e.target.checked)}>
          <span className="grant-table-name mono-text">{table.name}</span>
          {table.comment && <span className="grant-table-comment">{table.comment}</span>}
          <span className="grant-table-meta">
            {table.kind === 'VIEW' && <Tag color="orange">{t.dsKindView}</Tag>}
            <Typography.Text type="secondary" className="grant-table-schema">
              {table.schema}
            </Typography.Text>
          </span>
        </Checkbox>
      </div>
    );
  };

  return (
    <Card
      size="small"
      className="grant-tables"
      title={t.grantTables(source.dsName)}
      extra={
        <Typography.Text type="secondary" data-testid="grant-count">
          {t.grantCount(ticked.length, all.length)}
        </Typography.Text>
      }
    >
      <div className="grant-toolbar">
        <Input.Search
          className="grant-table-search"
          placeholder={t.grantTableSearch}
          allowClear
          onChange={(e) => setFilter(e.target.value)}
          aria-label={t.grantTableSearch}
        />
        <Space>
          <Checkbox checked={writable} onChange={(e) => setWritable(e.target.checked)} data-testid="grant-writable">
            {UPLOAD_ALLOWED}
          </Checkbox>
          <Button onClick={() => setChecked((c) => tickAll(c, visible))} disabled={visible.length === 0}>
            {t.grantSelectAll}
          </Button>
          <Button onClick={() => setChecked(new Set())} disabled={checked.size === 0}>
            {t.grantClear}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} disabled={ticked.length === 0} loading={save.isPending} onClick={() => save.mutate()}>
            {t.save}
          </Button>
        </Space>
      </div>
      {tables.isError ? (
        <Result status="warning" title={t.grantTablesFailed} subTitle={errorText(tables.error)} />
      ) : (
        <Spin spinning={tables.isFetching}>
          {visible.length === 0 ? (
            <Empty className="perm-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={tables.isFetching ? t.loading : t.grantNoTables} />
          ) : (
            <div data-testid="grant-table-list">
              <Listy<DataSourceTable>
                className="grant-table-list"
                items={visible}
                rowKey={tableKey}
                virtual={visible.length > VIRTUAL_FROM}
                height={LIST_HEIGHT}
                itemRender={renderRow}
              />
            </div>
          )}
        </Spin>
      )}
    </Card>
  );
}
