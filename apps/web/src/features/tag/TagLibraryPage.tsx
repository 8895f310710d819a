import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Input, Table, Tag as AntTag, Tree, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Tag } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { fetchTags, storeTagId, tagKeys } from './api.ts';
import { fill, tg } from './messages.ts';
import { TAG_DETAIL_PATH } from './paths.ts';
import './tag.css';

const F = tg.fields;
const ALL = 'all';

/** Level 1 → level 2 tree of the listed tags, each node with its tag count. */
function treeOf(tags: readonly Tag[]) {
  const level1 = new Map<string, Map<string, number>>();
  for (const t of tags) {
    const two = level1.get(t.level1Name) ?? new Map<string, number>();
    two.set(t.level2Name, (two.get(t.level2Name) ?? 0) + 1);
    level1.set(t.level1Name, two);
  }
  return [
    {
      key: ALL,
      title: `${tg.allTags}（${tags.length}）`,
      children: [...level1].map(([one, twos]) => ({
        key: `1:${one}`,
        title: one,
        children: [...twos].map(([two, n]) => ({ key: `2:${one}:${two}`, title: `${two}（${n}）`, isLeaf: true })),
      })),
    },
  ];
}

/** 标签库: every tag with every field of spec 1 §3, a tree by level-1 / level-2 name and a search. */
export function TagLibraryPage() {
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [node, setNode] = useState(ALL);
  const tags = useQuery({ queryKey: tagKeys.list(keyword), queryFn: () => fetchTags(keyword), placeholderData: keepPreviousData });
  const all = useMemo(() => tags.data ?? [], [tags.data]);
  const tree = useMemo(() => treeOf(all), [all]);
  const shown = all.filter((t) => node === ALL || node === `1:${t.level1Name}` || node === `2:${t.level1Name}:${t.level2Name}`);
  const open = (t: Tag) => {
    storeTagId(t.tagId);
    void navigate(TAG_DETAIL_PATH);
  };
  const columns: TableColumnsType<Tag> = [
    { key: 'id', title: F.tagId, dataIndex: 'tagId', width: 80 },
    {
      key: 'name',
      title: F.tagName,
      width: 130,
      render: (_, t) => (
        <Button type="link" size="small" onClick={() => open(t)} data-testid={`tag-open-${t.tagId}`}>
          {t.tagName}
        </Button>
      ),
    },
    { key: 'l1', title: F.level1Name, dataIndex: 'level1Name', width: 90 },
    { key: 'l2', title: F.level2Name, dataIndex: 'level2Name', width: 100 },
    { key: 'user', title: F.userType, dataIndex: 'userType', width: 80 },
    { key: 'type', title: F.tagType, width: 70, render: (_, t) => tg.tagTypes[t.tagType as 1 | 2] ?? t.tagType },
    { key: 'dev', title: F.developType, width: 80, render: (_, t) => tg.developTypes[t.developType as 1 | 2] ?? t.developType },
    { key: 'ex', title: F.exclusion, width: 60, render: (_, t) => tg.exclusion[t.exclusion as 1 | 2] ?? t.exclusion },
    {
      key: 'online',
      title: F.isOnline,
      width: 80,
      render: (_, t) => <AntTag color={t.isOnline === 1 ? 'green' : 'default'}>{tg.online[t.isOnline as 1 | 2] ?? t.isOnline}</AntTag>,
    },
    { key: 'desc', title: F.tagDesc, dataIndex: 'tagDesc', ellipsis: true },
  ];
  return (
    <PageContainer title={tg.pageLibrary} description={tg.pageLibraryDesc}>
      <div className="tag-library">
        <aside className="tag-library-tree">
          <Input.Search placeholder={tg.search} allowClear onSearch={(v) => setKeyword(v.trim())} data-testid="tag-search" />
          <Tree
            blockNode
            defaultExpandAll
            key={`${keyword}:${all.length}`}
            selectedKeys={[node]}
            treeData={tree}
            onSelect={(keys) => setNode(String(keys[0] ?? ALL))}
          />
        </aside>
        <div className="tag-library-table">
          <div className="tag-library-count">{fill(tg.tagCount, { n: shown.length })}</div>
          <Table rowKey="tagId" size="small" columns={columns} dataSource={shown} loading={tags.isFetching && !tags.data} pagination={{ pageSize: 20 }} />
        </div>
      </div>
    </PageContainer>
  );
}
