import { useMemo, useState } from 'react';
import { Empty, Input, Tree } from 'antd';
import { ApartmentOutlined } from '@ant-design/icons';
import type { DepartmentNode } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';
import { treeIds } from './tree.ts';

interface TreeItem {
  key: number;
  title: string;
  children?: TreeItem[];
}

/** Keeps nodes whose name contains `keyword`, with their ancestors. */
function filterTree(nodes: DepartmentNode[], keyword: string): TreeItem[] {
  const out: TreeItem[] = [];
  for (const n of nodes) {
    const children = filterTree(n.children, keyword);
    if (!keyword || n.deptName.includes(keyword) || children.length) {
      out.push({ key: n.id, title: n.deptName, ...(children.length ? { children } : {}) });
    }
  }
  return out;
}

/** The department filter beside the user table; key 0 is 全部部门. */
export function DeptTreePanel({ depts, value, onChange }: { depts: DepartmentNode[]; value: number; onChange: (deptId: number) => void }) {
  const [keyword, setKeyword] = useState('');
  const treeData = useMemo(() => [{ key: 0, title: t.allDepts, children: filterTree(depts, keyword.trim()) }], [depts, keyword]);
  const [userExpanded, setUserExpanded] = useState<number[] | null>(null);
  const expanded = useMemo(() => (userExpanded && !keyword ? userExpanded : [0, ...treeIds(depts)]), [depts, userExpanded, keyword]);
  return (
    <div className="dept-panel">
      <Input.Search placeholder={t.deptName} allowClear onChange={(e) => setKeyword(e.target.value)} className="dept-panel-search" />
      {depts.length === 0 && keyword === '' ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.noDepts} />
      ) : (
        <Tree<TreeItem>
          blockNode
          showIcon
          icon={<ApartmentOutlined />}
          treeData={treeData}
          expandedKeys={expanded}
          onExpand={(keys) => setUserExpanded(keys.map(Number))}
          selectedKeys={[value]}
          onSelect={(keys) => onChange(Number(keys[0] ?? 0))}
        />
      )}
    </div>
  );
}
