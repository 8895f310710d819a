import { useState, type DragEvent } from 'react';
import { App, Button, Card, Dropdown, Empty, Input, Pagination, Spin, Tooltip, Typography } from 'antd';
import {
  CopyOutlined,
  DeleteOutlined,
  DesktopOutlined,
  DownOutlined,
  EditOutlined,
  EyeOutlined,
  FormOutlined,
  HolderOutlined,
  LayoutOutlined,
  PlusOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ALL_CATEGORIES, BOARD_PAGE_SIZE, type BoardKind, type BoardListItem, type BoardType } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { boardKeys, copyBoard, deleteBoard, editorPath, fetchBoardCategories, fetchBoards, previewPath, sortBoards } from './api.ts';
import { categoryLabel, CategoryFormModal, CategoryListModal, CategoryMenu, type CategoryTarget } from './categories.tsx';
import { BoardInfoModal, BoardPermModal } from './dialogs.tsx';
import { bm, bt, kindPageTitle } from './messages.ts';
import './board.css';

/** The type ribbon: 快速 for quick boards, 大屏 otherwise (the default). */
export function typeLabel(type: BoardType | null | undefined): string {
  return type === 'quick' ? bt.typeQuick : bt.typeScreen;
}

/** `ids` with `moved` put where `target` is (before it when moving up, after it when moving down). */
export function moveId(ids: readonly number[], moved: number, target: number): number[] {
  const from = ids.indexOf(moved);
  const to = ids.indexOf(target);
  if (from < 0 || to < 0 || from === to) return [...ids];
  const next = ids.filter((id) => id !== moved);
  next.splice(to, 0, moved);
  return next;
}

/** Opens a page in a new tab (the editors). */
function openInNewTab(url: string) {
  window.open(url, '_blank');
}

interface CardProps {
  board: BoardListItem;
  kind: BoardKind;
  isAdmin: boolean;
  dragging: boolean;
  dropTarget: boolean;
  onEditInfo: () => void;
  onPermission: () => void;
  onDelete: () => void;
  onCopy: () => void;
  onPreview: () => void;
  onDragStart: (e: DragEvent) => void;
  onDragOver: (e: DragEvent) => void;
  onDrop: (e: DragEvent) => void;
  onDragEnd: () => void;
}

/** One card: 16:9 thumbnail with the type ribbon and the edit/preview overlay, the title and the icons. */
function BoardCard({ board, kind, isAdmin, dragging, dropTarget, ...on }: CardProps) {
  const className = ['board-card', dragging && 'is-dragging', dropTarget && 'is-drop-target', board.editable && 'is-draggable'].filter(Boolean).join(' ');
  const Placeholder = board.type === 'quick' ? LayoutOutlined : DesktopOutlined;
  return (
    <div
      className={className}
      data-testid="board-card"
      data-id={board.id}
      data-title={board.title}
      draggable={board.editable}
      onDragStart={board.editable ? on.onDragStart : undefined}
      onDragOver={on.onDragOver}
      onDrop={on.onDrop}
      onDragEnd={on.onDragEnd}
      title={board.editable ? bt.dragHint : undefined}
    >
      <div className="board-card-thumb">
        {board.backgroundUrl ? (
          <img src={board.backgroundUrl} alt={board.title} draggable={false} loading="lazy" />
        ) : (
          <div className={`board-card-placeholder is-${board.type}`} data-testid="board-card-placeholder">
            <Placeholder />
            <span>{bt.noThumbnail}</span>
          </div>
        )}
        <span className={`board-card-ribbon is-${board.type}`} data-testid="board-card-ribbon">
          {typeLabel(board.type)}
        </span>
        <div className="board-card-overlay">
          {board.editable && (
            <Button type="primary" icon={<EditOutlined />} onClick={() => openInNewTab(editorPath(kind, board.type, { id: board.id }))}>
              {bt.edit}
            </Button>
          )}
          <Button icon={<EyeOutlined />} onClick={on.onPreview}>
            {bt.preview}
          </Button>
        </div>
      </div>
      <div className="board-card-body">
        {board.editable && <HolderOutlined className="board-card-handle" />}
        <Typography.Text className="board-card-title" ellipsis={{ tooltip: board.title }}>
          {board.title}
        </Typography.Text>
        <span className="board-card-icons">
          {board.editable && (
            <Tooltip title={bt.editInfo}>
              <Button type="text" size="small" icon={<FormOutlined />} aria-label={bt.editInfo} onClick={on.onEditInfo} />
            </Tooltip>
          )}
          {isAdmin && (
            <Tooltip title={bt.permission}>
              <Button type="text" size="small" icon={<SafetyCertificateOutlined />} aria-label={bt.permission} onClick={on.onPermission} />
            </Tooltip>
          )}
          {board.editable && (
            <Tooltip title={bt.delete}>
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={bt.delete} onClick={on.onDelete} />
            </Tooltip>
          )}
          <Tooltip title={bt.copy}>
            <Button type="text" size="small" icon={<CopyOutlined />} aria-label={bt.copy} onClick={on.onCopy} />
          </Tooltip>
        </span>
      </div>
    </div>
  );
}

/**
 * The list of big-screen dashboards (kind visual, /newbi/visual) or self-service reports
 * (kind report, /newbi/report) (spec 1 §2.1): category menu on the left; search, 新建自助报表
 * and a card grid of 50 per page, reordered by dragging, on the right.
 */
export function BoardListPage({ kind }: { kind: BoardKind }) {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useUserInfo().data;
  const isAdmin = me?.isAdministrator === true;
  const [categoryId, setCategoryId] = useState<number>(ALL_CATEGORIES);
  const [title, setTitle] = useState('');
  const [current, setCurrent] = useState(1);
  const [editingCategories, setEditingCategories] = useState(false);
  const [categoryTarget, setCategoryTarget] = useState<CategoryTarget | null>(null);
  const [infoOf, setInfoOf] = useState<BoardListItem | null>(null);
  const [permOf, setPermOf] = useState<BoardListItem | null>(null);
  const [dragId, setDragId] = useState<number | null>(null);
  const [overId, setOverId] = useState<number | null>(null);
  /** The order just dropped, shown until the list is read again. */
  const [order, setOrder] = useState<number[] | null>(null);

  const categories = useQuery({ queryKey: boardKeys.categories(kind), queryFn: () => fetchBoardCategories(kind), staleTime: 0 });
  const params = { kind, current, size: BOARD_PAGE_SIZE, categoryId: categoryId === ALL_CATEGORIES ? undefined : categoryId, title: title || undefined };
  const list = useQuery({ queryKey: boardKeys.list(params), queryFn: () => fetchBoards(params), placeholderData: keepPreviousData, staleTime: 0 });
  const allCategories = categories.data ?? [];
  const fetched = list.data?.records ?? [];
  const records = order ? order.map((id) => fetched.find((b) => b.id === id)).filter((b): b is BoardListItem => b !== undefined) : fetched;
  const total = list.data?.total ?? 0;

  const refresh = () => queryClient.invalidateQueries({ queryKey: boardKeys.listAll });

  const remove = useMutation({
    mutationFn: deleteBoard,
    onSuccess: async () => {
      notifySuccess(bm.deleteSuccess);
      if (current > 1 && records.length === 1) setCurrent((c) => c - 1);
      await refresh();
    },
  });
  const copy = useMutation({
    mutationFn: copyBoard,
    onSuccess: async () => {
      notifySuccess(bm.copySuccess);
      await refresh();
    },
  });
  const sort = useMutation({
    mutationFn: (ids: number[]) => sortBoards(kind, ids),
    onSuccess: async () => {
      await refresh();
      setOrder(null);
    },
    onError: () => setOrder(null),
  });

  const confirm = (content: string, run: () => Promise<unknown>, danger = false) =>
    modal.confirm({
      title: bt.confirmTitle,
      content,
      okText: bt.confirm,
      cancelText: bt.cancel,
      okButtonProps: { danger },
      onOk: () => run().catch(() => undefined),
    });

  const selectCategory = (id: number) => {
    setCategoryId(id);
    setCurrent(1);
    setOrder(null);
  };

  // A new category goes under the selected top-level category (or the selected one's parent).
  const selected = allCategories.find((c) => c.id === categoryId);
  const addParent = selected ? (selected.parentId === 0 ? selected.id : selected.parentId) : 0;

  const create = (type: BoardType) => openInNewTab(editorPath(kind, type, { categoryId }));

  const drop = (target: number) => {
    const moved = dragId;
    setDragId(null);
    setOverId(null);
    if (moved === null || moved === target) return;
    const ids = moveId(
      records.map((b) => b.id),
      moved,
      target,
    );
    setOrder(ids);
    sort.mutate(ids);
  };

  const pageTitle = kindPageTitle(kind);
  return (
    <PageContainer title={pageTitle} description={kind === 'visual' ? bt.visualDesc : bt.reportDesc}>
      <div className="split-layout board-layout">
        <Card
          size="small"
          className="split-side board-side"
          title={bt.categories(kind)}
          extra={
            <span className="board-side-actions">
              <Tooltip title={bt.editCategories}>
                <Button type="text" size="small" icon={<SettingOutlined />} aria-label={bt.editCategories} onClick={() => setEditingCategories(true)} />
              </Tooltip>
              <Tooltip title={bt.addCategory}>
                <Button
                  type="text"
                  size="small"
                  icon={<PlusOutlined />}
                  aria-label={bt.addCategory}
                  onClick={() => setCategoryTarget({ parentId: addParent })}
                />
              </Tooltip>
            </span>
          }
        >
          <CategoryMenu categories={allCategories} loading={categories.isFetching} value={categoryId} onChange={selectCategory} />
        </Card>
        <Card className="split-main board-main" title={`${pageTitle} · ${categoryLabel(allCategories, categoryId)}`} styles={{ body: { padding: 16 } }}>
          <div className="table-toolbar">
            <Input.Search
              className="table-search"
              placeholder={bt.search}
              aria-label={bt.search}
              allowClear
              enterButton={bt.searchButton}
              onSearch={(v) => {
                setTitle(v.trim());
                setCurrent(1);
                setOrder(null);
              }}
            />
            <Dropdown
              trigger={['click']}
              placement="bottomRight"
              menu={{
                items: [
                  { key: 'screen', icon: <DesktopOutlined />, label: bt.screenMode, extra: bt.screenModeDesc },
                  { key: 'quick', icon: <LayoutOutlined />, label: bt.quickMode, extra: bt.quickModeDesc },
                ],
                onClick: ({ key }) => create(key as BoardType),
              }}
            >
              <Button type="primary" icon={<PlusOutlined />} data-testid="board-create">
                {bt.create}
                <DownOutlined />
              </Button>
            </Dropdown>
          </div>
          <Spin spinning={list.isFetching || sort.isPending}>
            {records.length === 0 ? (
              <Empty className="board-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={list.isFetching ? bm.loading : bt.empty(kind)} />
            ) : (
              <div className="board-grid" data-testid="board-grid">
                {records.map((b) => (
                  <BoardCard
                    key={b.id}
                    board={b}
                    kind={kind}
                    isAdmin={isAdmin}
                    dragging={dragId === b.id}
                    dropTarget={overId === b.id && dragId !== null && dragId !== b.id}
                    onEditInfo={() => setInfoOf(b)}
                    onPermission={() => setPermOf(b)}
                    onDelete={() => confirm(bm.confirmDelete, () => remove.mutateAsync(b.id), true)}
                    onCopy={() => confirm(bm.confirmCopy, () => copy.mutateAsync(b.id))}
                    onPreview={() => void navigate(previewPath(b.id))}
                    onDragStart={(e) => {
                      e.dataTransfer?.setData('text/plain', String(b.id));
                      if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
                      setDragId(b.id);
                    }}
                    onDragOver={(e) => {
                      if (dragId === null) return;
                      e.preventDefault();
                      if (e.dataTransfer) e.dataTransfer.dropEffect = 'move';
                      if (overId !== b.id) setOverId(b.id);
                    }}
                    onDrop={(e) => {
                      e.preventDefault();
                      drop(b.id);
                    }}
                    onDragEnd={() => {
                      setDragId(null);
                      setOverId(null);
                    }}
                  />
                ))}
              </div>
            )}
          </Spin>
          {total > 0 && (
            <Pagination
              className="board-pagination"
              align="end"
              current={current}
              pageSize={BOARD_PAGE_SIZE}
              total={total}
              showSizeChanger={false}
              showTotal={bt.total}
              onChange={(page) => {
                setCurrent(page);
                setOrder(null);
              }}
            />
          )}
        </Card>
      </div>
      <CategoryListModal
        kind={kind}
        open={editingCategories}
        categories={allCategories}
        loading={categories.isFetching}
        onClose={() => setEditingCategories(false)}
        onDeleted={(id) => {
          if (id === categoryId) selectCategory(ALL_CATEGORIES);
        }}
      />
      <CategoryFormModal kind={kind} target={categoryTarget} categories={allCategories} onClose={() => setCategoryTarget(null)} />
      <BoardInfoModal board={infoOf} categories={allCategories} onClose={() => setInfoOf(null)} />
      <BoardPermModal key={permOf?.id ?? 0} board={permOf} onClose={() => setPermOf(null)} />
    </PageContainer>
  );
}

export function VisualListPage() {
  return <BoardListPage key="visual" kind="visual" />;
}

export function ReportListPage() {
  return <BoardListPage key="report" kind="report" />;
}
