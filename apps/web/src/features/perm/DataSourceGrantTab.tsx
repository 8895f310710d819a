import { useMemo, useState } from 'react';
import { App, Button, Card, Empty, Popover, Select, Spin, Tag, Tooltip, Typography } from 'antd';
import { DatabaseOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMessage, permMessages, type DataSourceGrant } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { fetchAllDataSources, fetchDataSourceGrants, permKeys, saveDataSourceGrant } from './api.ts';
import { TableChecklist } from './TableChecklist.tsx';
import type { GrantTabProps } from './grant-scaffold.tsx';

/** A source in the left list: saved (from the server) or added here and not saved yet. */
export interface GrantedSource extends DataSourceGrant {
  local: boolean;
}

/** Saved grants first, in the server's order, then the sources added here, in the order added. */
export function mergeSources(saved: DataSourceGrant[], local: GrantedSource[]): GrantedSource[] {
  const savedIds = new Set(saved.map((g) => g.datasourceId));
  return [...saved.map((g) => ({ ...g, local: false })), ...local.filter((g) => !savedIds.has(g.datasourceId))];
}

/** The data-source table authorisation panel (spec 2 §2, §5, §7) of one group. */
export function DataSourceGrantTab({ groupId }: GrantTabProps) {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [local, setLocal] = useState<GrantedSource[]>([]);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);

  const grants = useQuery({ queryKey: permKeys.dataSourceGrants(groupId), queryFn: () => fetchDataSourceGrants(groupId), staleTime: 0 });
  const sources = useQuery({ queryKey: permKeys.allSources, queryFn: fetchAllDataSources, staleTime: 0, enabled: adding });
  const list = useMemo(() => mergeSources(grants.data ?? [], local), [grants.data, local]);
  const selected = list.find((s) => s.datasourceId === selectedId) ?? list[0] ?? null;

  const refresh = () => queryClient.invalidateQueries({ queryKey: permKeys.dataSourceGrants(groupId) });

  const remove = useMutation({
    mutationFn: (source: GrantedSource) => saveDataSourceGrant(groupId, source.datasourceId, []),
    onSuccess: async (res, source) => {
      notifySuccess(res.msg || msg.deleted);
      setLocal((l) => l.filter((s) => s.datasourceId !== source.datasourceId));
      await refresh();
    },
  });

  const add = (datasourceId: number) => {
    if (list.some((s) => s.datasourceId === datasourceId)) {
      void message.warning(permMessages.dataSourceDuplicate);
      return;
    }
    const source = sources.data?.find((s) => s.id === datasourceId);
    if (!source) return;
    setLocal((l) => [...l, { dataPermId: groupId, datasourceId, dsName: source.dsDb, dsTypeSyl: source.dsTypeSyl, tableNames: [], local: true }]);
    setSelectedId(datasourceId);
    setAdding(false);
  };

  const confirmRemove = (source: GrantedSource) => {
    if (source.local) {
      setLocal((l) => l.filter((s) => s.datasourceId !== source.datasourceId));
      return;
    }
    modal.confirm({
      title: t.confirmTitle,
      content: formatMessage(permMessages.confirmRemoveSource, { name: source.dsName }),
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(source).catch(() => undefined),
    });
  };

  const picker = (
    <div className="grant-add-popover">
      <Select<number>
        className="full-width"
        placeholder={t.grantPickSource}
        loading={sources.isFetching}
        showSearch={{ optionFilterProp: 'label' }}
        options={(sources.data ?? []).map((s) => ({ value: s.id, label: s.dsDb }))}
        value={null}
        onChange={add}
        data-testid="grant-source-select"
      />
    </div>
  );

  return (
    <div className="split-layout grant-layout">
      <Card
        size="small"
        className="split-side grant-sources"
        title={t.grantSources}
        extra={
          <Popover trigger="click" placement="bottomLeft" title={t.grantAddSource} content={picker} open={adding} onOpenChange={setAdding} destroyOnHidden>
            <Button type="link" size="small" icon={<PlusOutlined />}>
              {t.grantAddSource}
            </Button>
          </Popover>
        }
      >
        <Spin spinning={grants.isFetching}>
          {list.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.grantNoSources} />
          ) : (
            <ul className="perm-type-list grant-source-list" role="listbox" aria-label={t.grantSources} data-testid="grant-sources">
              {list.map((s) => (
                <li
                  key={s.datasourceId}
                  role="option"
                  aria-selected={selected?.datasourceId === s.datasourceId}
                  tabIndex={0}
                  className={`perm-type-item${selected?.datasourceId === s.datasourceId ? ' perm-type-item-active' : ''}`}
                  onClick={() => setSelectedId(s.datasourceId)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') setSelectedId(s.datasourceId);
                  }}
                >
                  <DatabaseOutlined />
                  <span className="perm-type-name" title={s.dsName}>
                    {s.dsName}
                    <Typography.Text type="secondary" className="grant-source-sub">
                      {s.dsTypeSyl} · {t.grantTableTotal(s.tableNames.length)}
                      {s.local && (
                        <Tag color="orange" className="grant-unsaved">
                          {t.grantUnsaved}
                        </Tag>
                      )}
                    </Typography.Text>
                  </span>
                  <Tooltip title={t.grantRemoveSource}>
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<MinusCircleOutlined />}
                      aria-label={t.grantRemoveSource}
                      onClick={(e) => {
                        e.stopPropagation();
                        confirmRemove(s);
                      }}
                    />
                  </Tooltip>
                </li>
              ))}
            </ul>
          )}
        </Spin>
      </Card>
      <div className="split-main">
        {selected ? (
          <TableChecklist
            key={selected.datasourceId}
            groupId={groupId}
            source={selected}
            onSaved={async () => {
              await refresh();
              setLocal((l) => l.filter((s) => s.datasourceId !== selected.datasourceId));
            }}
          />
        ) : (
          <Card size="small">
            <Empty className="perm-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.grantTablesEmpty} />
          </Card>
        )}
      </div>
    </div>
  );
}
