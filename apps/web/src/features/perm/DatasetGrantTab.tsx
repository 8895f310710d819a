import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, Descriptions, Drawer, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import { FilterOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CubeCategory, DatasetListItem } from '@shutu/contracts';
import { msg, t } from '../../app/messages.ts';
import { notifySuccess } from '../../app/notify.ts';
import { datasetKeys, fetchAllDatasets, fetchAuthCubeDetail, fetchAuthCubeIds, fetchCategories, fetchDatasetFields, saveAuthCubes } from '../dataset/api.ts';
import { CategoryTree } from '../dataset/CategoryTree.tsx';
import { TABLE_TYPE_LABELS } from '../dataset/DatasetListPage.tsx';
import { excludedTitles, filterText } from '../dataset/filter-text.ts';
import type { GrantTabProps } from './grant-tabs.tsx';
import '../dataset/dataset.css';

/** The category the tab opens on: the first top-level one (grants are saved per category). */
export function firstCategory(categories: readonly CubeCategory[]): number | null {
  return categories.find((c) => c.parentId === 0)?.id ?? null;
}

/** The group's row filter and excluded columns on one dataset (authCubeDetail), read-only. */
export function RowPermDrawer({ groupId, groupName, cube, onClose }: { groupId: number; groupName: string; cube: DatasetListItem | null; onClose: () => void }) {
  const id = cube?.id ?? 0;
  const detail = useQuery({ queryKey: datasetKeys.authDetail(groupId, id), queryFn: () => fetchAuthCubeDetail(groupId, id), enabled: cube !== null, staleTime: 0 });
  const fields = useQuery({ queryKey: datasetKeys.fields(id), queryFn: () => fetchDatasetFields(id), enabled: cube !== null, staleTime: 0 });
  const titles = useMemo(() => new Map((fields.data ?? []).map((f) => [String(f.id), f.columnTitle])), [fields.data]);
  const filter = detail.data?.filter ?? null;
  const rows = filter ? filterText(filter.filterJson, titles) : null;
  const columns = filter ? excludedTitles(filter.excludeColumnIds, titles) : [];

  return (
    <Drawer open={cube !== null} title={cube ? t.grantRowPermTitle(cube.cubeName) : ''} size={560} destroyOnHidden onClose={onClose}>
      <Spin spinning={detail.isFetching || fields.isFetching}>
        <div data-testid="row-perm">
          {detail.data && !filter && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.grantRowPermNone} />}
          {filter && (
            <Descriptions
              column={1}
              bordered
              size="small"
              items={[
                { key: 'group', label: t.grantRowPermGroup, children: groupName },
                { key: 'name', label: t.grantRowPermFilter, children: filter.cubePermName },
                {
                  key: 'rows',
                  label: t.grantRowPermRows,
                  children: <span className="row-perm-text">{rows ?? t.grantRowPermAllRows}</span>,
                },
                {
                  key: 'columns',
                  label: t.grantRowPermColumns,
                  children: columns.length ? columns.map((c) => <Tag key={c}>{c}</Tag>) : t.grantRowPermNoColumns,
                },
              ]}
            />
          )}
          {detail.data && (
            <Typography.Paragraph type="secondary" className="grant-row-hint">
              {detail.data.granted ? t.grantGranted : t.grantNotGranted} · {t.grantRowPermHint}
            </Typography.Paragraph>
          )}
        </div>
      </Spin>
    </Drawer>
  );
}

/** The datasets of one category with the group's grants ticked: 全选, 清空, 保存. */
function CubeChecklist({ groupId, categoryId, categoryName, onRowPerm }: { groupId: number; categoryId: number; categoryName: string; onRowPerm: (c: DatasetListItem) => void }) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const cubes = useQuery({ queryKey: [...datasetKeys.listAll, 'all', categoryId], queryFn: () => fetchAllDatasets(categoryId), staleTime: 0 });
  const granted = useQuery({ queryKey: datasetKeys.authList(groupId, categoryId), queryFn: () => fetchAuthCubeIds(groupId, categoryId), staleTime: 0 });
  const [checked, setChecked] = useState<Set<number> | null>(null);
  // Untouched, the ticks are the saved grants; the first click copies them.
  const ticks = checked ?? new Set(granted.data ?? []);
  const all = cubes.data ?? [];
  const visible = all.filter((c) => !filter || c.cubeName.toLowerCase().includes(filter.trim().toLowerCase()));
  const ticked = all.filter((c) => ticks.has(c.id)).map((c) => c.id);

  const save = useMutation({
    mutationFn: () => saveAuthCubes(groupId, categoryId, ticked),
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.saved);
      await queryClient.invalidateQueries({ queryKey: datasetKeys.authAll });
    },
  });

  const toggle = (id: number, on: boolean) =>
    setChecked(() => {
      const next = new Set(ticks);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Card
      size="small"
      title={t.grantCubes(categoryName)}
      extra={
        <Typography.Text type="secondary" data-testid="grant-cube-count">
          {t.grantCount(ticked.length, all.length)}
        </Typography.Text>
      }
    >
      <div className="grant-toolbar">
        <Input.Search className="grant-table-search" placeholder={t.dsetSearch} allowClear onChange={(e) => setFilter(e.target.value)} aria-label={t.dsetSearch} />
        <Space>
          <Button onClick={() => setChecked(new Set([...ticks, ...visible.map((v) => v.id)]))} disabled={visible.length === 0}>
            {t.grantSelectAll}
          </Button>
          <Button onClick={() => setChecked(new Set())} disabled={ticks.size === 0}>
            {t.grantClear}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} disabled={!granted.isSuccess || !cubes.isSuccess} onClick={() => save.mutate()}>
            {t.save}
          </Button>
        </Space>
      </div>
      <Spin spinning={cubes.isFetching || granted.isFetching}>
        {visible.length === 0 ? (
          <Empty className="perm-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={cubes.isFetching ? t.loading : t.grantNoCubes} />
        ) : (
          <div className="grant-cube-list" data-testid="grant-cube-list">
            {visible.map((c) => (
              <div key={c.id} className="grant-cube-row" data-testid="grant-cube" data-cube={c.cubeName}>
                <Checkbox checked={ticks.has(c.id)} onChange={(e) => toggle(c.id, e.target.checked)}>
                  <span className="cell-strong">{c.cubeName}</span>
                  <span className="grant-cube-meta">
                    {TABLE_TYPE_LABELS[c.tableType]} · {c.dsName} · {c.workspaceName}
                  </span>
                </Checkbox>
                {c.publicStatus === 1 && <Tag color="green">{t.dsetPublic}</Tag>}
                <Button size="small" icon={<FilterOutlined />} onClick={() => onRowPerm(c)}>
                  {t.grantRowPerm}
                </Button>
              </div>
            ))}
          </div>
        )}
      </Spin>
    </Card>
  );
}

/** Group-level dataset authorisation (spec 2 §7): by category, grant in batch, per-dataset row filter. */
export function DatasetGrantTab({ groupId, groupName }: GrantTabProps) {
  const categories = useQuery({ queryKey: datasetKeys.categories, queryFn: fetchCategories, staleTime: 0 });
  const [picked, setPicked] = useState<number | null>(null);
  const [rowPerm, setRowPerm] = useState<DatasetListItem | null>(null);
  const list = categories.data ?? [];
  const selected = list.some((c) => c.id === picked) ? picked : firstCategory(list);
  const name = list.find((c) => c.id === selected)?.wsName ?? '';

  return (
    <div className="split-layout grant-layout">
      <Card size="small" className="split-side dset-side" title={t.dsetCategories}>
        {categories.isSuccess && list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.grantNoCategories} />
        ) : (
          <CategoryTree categories={list} loading={categories.isFetching} value={selected ?? -1} onChange={setPicked} editable={false} withAll={false} />
        )}
      </Card>
      <div className="split-main">
        {selected === null ? (
          <Card size="small">
            <Empty className="perm-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.grantCubesPickCategory} />
          </Card>
        ) : (
          <CubeChecklist key={selected} groupId={groupId} categoryId={selected} categoryName={name} onRowPerm={setRowPerm} />
        )}
      </div>
      <RowPermDrawer groupId={groupId} groupName={groupName} cube={rowPerm} onClose={() => setRowPerm(null)} />
    </div>
  );
}
