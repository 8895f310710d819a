import { useMemo, useState } from 'react';
import { Button, Empty, Input, Space, Tree, type TreeDataNode } from 'antd';
import { DatabaseOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { fetchAudiences, fetchCubeCategories, fetchCubes } from './api.ts';
import { aum } from './messages.ts';

/** What is dragged from the panel onto the drop area. */
export type DragSource = { kind: 'cube'; id: number; name: string } | { kind: 'audience'; id: number; name: string };
export const DRAG_TYPE = 'application/x-shutu-audience-source';

/**
 * The editor's left panel: datasets grouped by workspace path (category › sub-category), with
 * search and expand / collapse all; below them the finished import groups, which combine like a dataset.
 */
export function DatasetPanel({ onPick }: { onPick: (source: DragSource) => void }) {
  const categories = useQuery({ queryKey: ['audience', 'cube-categories'], queryFn: fetchCubeCategories });
  const cubes = useQuery({ queryKey: ['audience', 'cubes'], queryFn: fetchCubes });
  const imports = useQuery({ queryKey: ['audience', 'imports'], queryFn: () => fetchAudiences({ current: 1, size: 1000 }) });
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<React.Key[] | null>(null);

  const tree = useMemo<TreeDataNode[]>(() => {
    const cats = categories.data ?? [];
    const words = search.trim().toLowerCase();
    const shown = (cubes.data ?? []).filter((c) => !words || c.cubeName.toLowerCase().includes(words));
    const leaf = (c: (typeof shown)[number]): TreeDataNode => ({
      key: `cube-${c.id}`,
      isLeaf: true,
      icon: <DatabaseOutlined />,
      title: (
        <span
          className="audience-cube"
          draggable
          data-testid={`audience-cube-${c.cubeName}`}
          onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ kind: 'cube', id: c.id, name: c.cubeName } satisfies DragSource))}
          onDoubleClick={() => onPick({ kind: 'cube', id: c.id, name: c.cubeName })}
        >
          {c.cubeName}
        </span>
      ),
    });
    const node = (parentId: number): TreeDataNode[] =>
      cats
        .filter((c) => c.parentId === parentId)
        .map((c) => ({ key: `ws-${c.id}`, title: c.wsName, children: [...node(c.id), ...shown.filter((x) => x.workspaceId === c.id).map(leaf)] }))
        .filter((n) => (n.children?.length ?? 0) > 0);
    const groups = (imports.data?.records ?? []).filter(
      (a) => a.kind === 'import' && a.status === 'done' && (!words || a.groupName.toLowerCase().includes(words)),
    );
    const importNode: TreeDataNode[] = groups.length
      ? [
          {
            key: 'imports',
            title: aum.kindLabels.import,
            children: groups.map((a) => ({
              key: `audience-${a.id}`,
              isLeaf: true,
              icon: <TeamOutlined />,
              title: (
                <span
                  className="audience-cube"
                  draggable
                  data-testid={`audience-group-${a.groupName}`}
                  onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ kind: 'audience', id: a.id, name: a.groupName } satisfies DragSource))}
                  onDoubleClick={() => onPick({ kind: 'audience', id: a.id, name: a.groupName })}
                >
                  {a.groupName}
                </span>
              ),
            })),
          },
        ]
      : [];
    return [...node(0), ...importNode];
  }, [categories.data, cubes.data, imports.data, search, onPick]);

  const allKeys = useMemo(() => {
    const keys: React.Key[] = [];
    const walk = (nodes: TreeDataNode[]) => nodes.forEach((n) => (n.children ? (keys.push(n.key), walk(n.children)) : undefined));
    walk(tree);
    return keys;
  }, [tree]);

  return (
    <div className="audience-datasets">
      <Input.Search allowClear placeholder={aum.searchDatasets} onChange={(e) => setSearch(e.target.value)} data-testid="audience-cube-search" />
      <Space style={{ margin: '8px 0' }}>
        <Button size="small" onClick={() => setExpanded(allKeys)}>
          {aum.expandAll}
        </Button>
        <Button size="small" onClick={() => setExpanded([])}>
          {aum.collapseAll}
        </Button>
      </Space>
      {tree.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree showIcon blockNode selectable={false} treeData={tree} expandedKeys={expanded ?? allKeys} onExpand={(keys) => setExpanded(keys)} />
      )}
    </div>
  );
}
