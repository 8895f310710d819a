import { Checkbox, Tag, Typography } from 'antd';
import { DesktopOutlined, LayoutOutlined } from '@ant-design/icons';
import type { BoardCategory, BoardKind, BoardListItem } from '@shutu/contracts';
import { CategoryGrantLayout, GrantChecklist, type GrantTabProps } from '../perm/grant-scaffold.tsx';
import { boardKeys, fetchAllBoards, fetchBoardCategories, fetchGroupBoardAuth, saveGroupBoardAuth } from './api.ts';
import { CategoryMenu } from './categories.tsx';
import { bm, bt } from './messages.ts';
import './board.css';

// The category the tab opens on is the scaffold's (the first top-level one).
export { firstCategory } from '../perm/grant-scaffold.tsx';

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
  return (
    <GrantChecklist<BoardListItem>
      title={bt.grantBoards(kind, categoryName)}
      count={bt.grantCount}
      texts={{
        search: bt.grantSearch,
        selectAll: bt.selectAll,
        clear: bt.clear,
        save: bt.save,
        saved: bm.saveSuccess,
        empty: bt.grantNoBoards,
        loading: bm.loading,
      }}
      testIds={{ count: 'grant-board-count', list: 'grant-board-list' }}
      items={{ queryKey: boardKeys.listInCategory(kind, categoryId), queryFn: () => fetchAllBoards(kind, categoryId) }}
      granted={{ queryKey: boardKeys.groupAuth(kind, groupId, categoryId), queryFn: () => fetchGroupBoardAuth(kind, groupId, categoryId) }}
      matches={(b, keyword) => b.title.toLowerCase().includes(keyword)}
      save={(ids) => saveGroupBoardAuth(kind, groupId, categoryId, ids)}
      invalidate={boardKeys.groupAuthAll}
      emptyClassName="board-empty"
      listClassName="board-grant-grid"
      renderItem={(b, checked, onToggle) => <GrantCard board={b} checked={checked} onToggle={onToggle} />}
    />
  );
}

/**
 * Group-level authorisation of 可视化大屏 (kind visual) or 自助报表 (kind report) (spec 1
 * §2.7): a filterable category tree on the left, the category's boards as cards on the right.
 */
export function BoardGrantTab({ kind, groupId }: GrantTabProps & { kind: BoardKind }) {
  return (
    <CategoryGrantLayout<BoardCategory>
      testId={`board-grant-${kind}`}
      sideClassName="board-side"
      title={bt.categories(kind)}
      categories={{ queryKey: boardKeys.categories(kind), queryFn: () => fetchBoardCategories(kind) }}
      nameOf={(c) => c.categoryValue}
      texts={{ noCategories: bt.grantNoCategories(kind), pickCategory: bt.grantPickCategory }}
      emptyClassName="board-empty"
      renderPicker={(picker) => <CategoryMenu {...picker} withAll={false} />}
      renderChecklist={(categoryId, categoryName) => (
        <BoardChecklist key={`${kind}:${categoryId}`} kind={kind} groupId={groupId} categoryId={categoryId} categoryName={categoryName} />
      )}
    />
  );
}

export function VisualGrantTab(props: GrantTabProps) {
  return <BoardGrantTab kind="visual" {...props} />;
}

export function ReportGrantTab(props: GrantTabProps) {
  return <BoardGrantTab kind="report" {...props} />;
}
