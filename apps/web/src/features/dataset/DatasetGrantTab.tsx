import { useMemo, useState } from 'react';
import { Button, Checkbox, Descriptions, Drawer, Empty, Spin, Tag, Typography } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { CubeCategory, DatasetListItem } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { datasetKeys, fetchAllDatasets, fetchAuthCubeDetail, fetchAuthCubeIds, fetchCategories, fetchDatasetFields, saveAuthCubes } from './api.ts';
import { CategoryTree } from './CategoryTree.tsx';
import { TABLE_TYPE_LABELS } from './DatasetListPage.tsx';
import { excludedTitles, filterText } from './filter-text.ts';
import { CategoryGrantLayout, GrantChecklist, type GrantTabProps } from '../perm/grant-scaffold.tsx';
import './dataset.css';

// The category the tab opens on is the scaffold's (the first top-level one).
export { firstCategory } from '../perm/grant-scaffold.tsx';

/** The group's row filter and excluded columns on one dataset (authCubeDetail), read-only. */
export function RowPermDrawer({
  groupId,
  groupName,
  cube,
  onClose,
}: {
  groupId: number;
  groupName: string;
  cube: DatasetListItem | null;
  onClose: () => void;
}) {
  const id = cube?.id ?? 0;
  const detail = useQuery({
    queryKey: datasetKeys.authDetail(groupId, id),
    queryFn: () => fetchAuthCubeDetail(groupId, id),
    enabled: cube !== null,
    staleTime: 0,
  });
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
function CubeChecklist({
  groupId,
  categoryId,
  categoryName,
  onRowPerm,
}: {
  groupId: number;
  categoryId: number;
  categoryName: string;
  onRowPerm: (c: DatasetListItem) => void;
}) {
  return (
    <GrantChecklist<DatasetListItem>
      title={t.grantCubes(categoryName)}
      count={t.grantCount}
      texts={{
        search: t.dsetSearch,
        selectAll: t.grantSelectAll,
        clear: t.grantClear,
        save: t.save,
        saved: msg.saved,
        empty: t.grantNoCubes,
        loading: t.loading,
      }}
      testIds={{ count: 'grant-cube-count', list: 'grant-cube-list' }}
      items={{ queryKey: [...datasetKeys.listAll, 'all', categoryId], queryFn: () => fetchAllDatasets(categoryId) }}
      granted={{ queryKey: datasetKeys.authList(groupId, categoryId), queryFn: () => fetchAuthCubeIds(groupId, categoryId) }}
      matches={(c, keyword) => c.cubeName.toLowerCase().includes(keyword)}
      save={(ids) => saveAuthCubes(groupId, categoryId, ids)}
      invalidate={datasetKeys.authAll}
      emptyClassName="perm-empty"
      listClassName="grant-cube-list"
      renderItem={(c, checked, onToggle) => (
        <div className="grant-cube-row" data-testid="grant-cube" data-cube={c.cubeName}>
          <Checkbox checked={checked} onChange={(e) => onToggle(e.target.checked)}>
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
      )}
    />
  );
}

/** Group-level dataset authorisation (spec 2 §7): by category, grant in batch, per-dataset row filter. */
export function DatasetGrantTab({ groupId, groupName }: GrantTabProps) {
  const [rowPerm, setRowPerm] = useState<DatasetListItem | null>(null);
  return (
    <CategoryGrantLayout<CubeCategory>
      sideClassName="dset-side"
      title={t.dsetCategories}
      categories={{ queryKey: datasetKeys.categories, queryFn: fetchCategories }}
      nameOf={(c) => c.wsName}
      texts={{ noCategories: t.grantNoCategories, pickCategory: t.grantCubesPickCategory }}
      emptyClassName="perm-empty"
      renderPicker={(picker) => <CategoryTree {...picker} editable={false} withAll={false} />}
      renderChecklist={(categoryId, categoryName) => (
        <CubeChecklist key={categoryId} groupId={groupId} categoryId={categoryId} categoryName={categoryName} onRowPerm={setRowPerm} />
      )}
    >
      <RowPermDrawer groupId={groupId} groupName={groupName} cube={rowPerm} onClose={() => setRowPerm(null)} />
    </CategoryGrantLayout>
  );
}
