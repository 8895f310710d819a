import { useState } from 'react';
import { Button, Card, Checkbox, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import { DesktopOutlined, LayoutOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BoardCategory, BoardKind, BoardListItem } from '@shutu/contracts';
import { notifySuccess } from '../../app/notify.ts';
import type { GrantTabProps } from '../perm/grant-tabs.tsx';
import { boardKeys, fetchAllBoards, fetchBoardCategories, fetchGroupBoardAuth, saveGroupBoardAuth } from './api.ts';
import { CategoryMenu } from './categories.tsx';
import { bm, bt } from './messages.ts';
import './board.css';

/** The category the tab opens on: the first top-level one (grants are saved per category). */
export function firstCategory(categories: readonly BoardCategory[]): number | null {
  return categories.find((c) => c.parentId === 0)?.id ?? null;
}

function GrantCard({ board, checked, onToggle }: { board: BoardListItem; checked: boolean; onToggle: (on: boolean) => void }) {
  const Placeholder = board.type === 'quick' ? LayoutOutlined : DesktopOutlined;
  return (
    <div className={`board-grant-card${checked ? ' is-checked' : ''}`} data-testid="grant-board" data-title={board.title} onClick={() => onToggle(!checked)}>
      <div className="board-card-thumb">
        {board.backgroundUrl ? (
          <img src={board.backgroundUrl} alt={board.title} draggable={false} loading="lazy" />
        ) : (
          <div className={`board-card-placeholder is-${board.type}`}>
            <Placeholder />
          </div>
        )}
      </div>
      <div className="board-grant-card-foot">
        <Checkbox checked={checked} onClick={(e) => e.stopPropagation()} onChange={(e) => onToggle(e.target.checked)} aria-label={board.title} />
        <Typography.Text ellipsis={{ tooltip: board.title }}>{board.title}</Typography.Text>
        {board.publicStatus === 1 && <Tag color="green">{bt.public}</Tag>}
      </div>
    </div>
  );
}

/** The boards of one category with the group's grants ticked: filter, 全选, 清空, 保存 (replaces the grants within the category). */
function BoardChecklist({ kind, groupId, categoryId, categoryName }: { kind: BoardKind; groupId: number; categoryId: number; categoryName: string }) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const boards = useQuery({ queryKey: boardKeys.listInCategory(kind, categoryId), queryFn: () => fetchAllBoards(kind, categoryId), staleTime: 0 });
  const granted = useQuery({ queryKey: boardKeys.groupAuth(kind, groupId, categoryId), queryFn: () => fetchGroupBoardAuth(kind, groupId, categoryId), staleTime: 0 });
  const [checked, setChecked] = useState<Set<number> | null>(null);
  // Untouched, the ticks are the saved grants; the first click copies them.
  const ticks = checked ?? new Set(granted.data ?? []);
  const all = boards.data ?? [];
  const keyword = filter.trim().toLowerCase();
  const visible = all.filter((b) => !keyword || b.title.toLowerCase().includes(keyword));
  const ticked = all.filter((b) => ticks.has(b.id)).map((b) => b.id);

  const save = useMutation({
    mutationFn: () => saveGroupBoardAuth(kind, groupId, categoryId, ticked),
    onSuccess: async (res) => {
      notifySuccess(res.msg || bm.saveSuccess);
      setChecked(null);
      await queryClient.invalidateQueries({ queryKey: boardKeys.groupAuthAll });
    },
  });

  const toggle = (id: number, on: boolean) => {
    const next = new Set(ticks);
    if (on) next.add(id);
    else next.delete(id);
    setChecked(next);
  };

  return (
    <Card
      size="small"
      title={bt.grantBoards(kind, categoryName)}
      extra={
        <Typography.Text type="secondary" data-testid="grant-board-count">
          {bt.grantCount(ticked.length, all.length)}
        </Typography.Text>
      }
    >
      <div className="grant-toolbar">
        <Input.Search className="grant-table-search" placeholder={bt.grantSearch} aria-label={bt.grantSearch} allowClear onChange={(e) => setFilter(e.target.value)} />
        <Space>
          <Button onClick={() => setChecked(new Set([...ticks, ...visible.map((v) => v.id)]))} disabled={visible.length === 0}>
            {bt.selectAll}
          </Button>
          <Button onClick={() => setChecked(new Set())} disabled={ticked.length === 0}>
            {bt.clear}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} disabled={!granted.isSuccess || !boards.isSuccess} onClick={() => save.mutate()}>
            {bt.save}
          </Button>
        </Space>
      </div>
      <Spin spinning={boards.isFetching || granted.isFetching}>
        {visible.length === 0 ? (
          <Empty className="board-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={boards.isFetching ? bm.loading : bt.grantNoBoards} />
        ) : (
          <div className="board-grant-grid" data-testid="grant-board-list">
            {visible.map((b) => (
              <GrantCard key={b.id} board={b} checked={ticks.has(b.id)} onToggle={(on) => toggle(b.id, on)} />
            ))}
          </div>
        )}
      </Spin>
    </Card>
  );
}

/**
 * Group-level authorisation of 可视化大屏 (kind visual) or 自助报表 (kind report) (spec 1
 * §2.7): a filterable category tree on the left, the category's boards as cards on the right.
 */
export function BoardGrantTab({ kind, groupId }: GrantTabProps & { kind: BoardKind }) {
  const categories = useQuery({ queryKey: boardKeys.categories(kind), queryFn: () => fetchBoardCategories(kind), staleTime: 0 });
  const [picked, setPicked] = useState<number | null>(null);
  const list = categories.data ?? [];
  const selected = list.some((c) => c.id === picked) ? picked : firstCategory(list);
  const name = list.find((c) => c.id === selected)?.categoryValue ?? '';

  return (
    <div className="split-layout grant-layout" data-testid={`board-grant-${kind}`}>
      <Card size="small" className="split-side board-side" title={bt.categories(kind)}>
        {categories.isSuccess && list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={bt.grantNoCategories(kind)} />
        ) : (
          <CategoryMenu categories={list} loading={categories.isFetching} value={selected ?? -1} onChange={setPicked} withAll={false} />
        )}
      </Card>
      <div className="split-main">
        {selected === null ? (
          <Card size="small">
            <Empty className="board-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={bt.grantPickCategory} />
          </Card>
        ) : (
          <BoardChecklist key={`${kind}:${selected}`} kind={kind} groupId={groupId} categoryId={selected} categoryName={name} />
        )}
      </div>
    </div>
  );
}

export function VisualGrantTab(props: GrantTabProps) {
  return <BoardGrantTab kind="visual" {...props} />;
}

export function ReportGrantTab(props: GrantTabProps) {
  return <BoardGrantTab kind="report" {...props} />;
}
