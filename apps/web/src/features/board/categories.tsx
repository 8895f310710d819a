import { useMemo, useState, type MouseEvent } from 'react';
import { App, Button, Empty, Form, Input, InputNumber, Modal, Select, Spin, Tooltip, Tree } from 'antd';
import { AppstoreOutlined, DeleteOutlined, EditOutlined, FolderOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALL_CATEGORIES, BOARD_CATEGORY_NAME_MAX_LENGTH, type BoardCategory, type BoardKind } from '@shutu/contracts';
import { msg } from '../../app/messages.ts';
import { notifySuccess } from '../../app/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { useUserInfo } from '../auth/hooks.ts';
import { boardKeys, deleteBoardCategory, saveBoardCategory } from './api.ts';
import { bm, bt } from './messages.ts';

export interface CategoryNode extends BoardCategory {
  children: BoardCategory[];
}

/** Two levels: the top-level categories (parent 0) with their sub-categories, in list order. */
export function categoryTree(list: readonly BoardCategory[]): CategoryNode[] {
  const roots = list.filter((c) => c.parentId === 0).map((c) => ({ ...c, children: [] as BoardCategory[] }));
  const byId = new Map(roots.map((r) => [r.id, r]));
  for (const c of list) if (c.parentId !== 0) byId.get(c.parentId)?.children.push(c);
  return roots;
}

/** The tree filtered by name: a matching top-level category keeps all its children; otherwise only matching children. */
export function filterCategoryTree(tree: readonly CategoryNode[], keyword: string): CategoryNode[] {
  const k = keyword.trim().toLowerCase();
  if (!k) return [...tree];
  const hit = (c: BoardCategory) => c.categoryValue.toLowerCase().includes(k);
  return tree.flatMap((root) => {
    if (hit(root)) return [root];
    const children = root.children.filter(hit);
    return children.length ? [{ ...root, children }] : [];
  });
}

/** The name of a category (全部 for -1). */
export function categoryLabel(categories: readonly BoardCategory[], id: number): string {
  if (id === ALL_CATEGORIES) return bt.allCategories;
  return categories.find((c) => c.id === id)?.categoryValue ?? '';
}

/** Options of a category picker: the two-level tree flattened, sub-categories indented. */
export function categoryOptions(categories: readonly BoardCategory[]): { value: number; label: string }[] {
  return categoryTree(categories).flatMap((root) => [
    { value: root.id, label: root.categoryValue },
    ...root.children.map((c) => ({ value: c.id, label: `${root.categoryValue} / ${c.categoryValue}` })),
  ]);
}

/** The parents a category may take: top level, or a top-level category other than itself; one with children stays top level. */
export function parentChoices(categories: readonly BoardCategory[], editing?: BoardCategory): { value: number; label: string }[] {
  const top = { value: 0, label: bt.categoryTop };
  if (editing && categories.some((c) => c.parentId === editing.id)) return [top];
  return [top, ...categories.filter((c) => c.parentId === 0 && c.id !== editing?.id).map((c) => ({ value: c.id, label: c.categoryValue }))];
}

interface MenuProps {
  categories: BoardCategory[];
  loading: boolean;
  value: number;
  onChange: (id: number) => void;
  /** Offer 全部 (id -1) first: the list page; the grant tab saves per category and leaves it out. */
  withAll?: boolean;
}

/** The category menu: a search box over a two-level tree. */
export function CategoryMenu({ categories, loading, value, onChange, withAll = true }: MenuProps) {
  const [keyword, setKeyword] = useState('');
  const treeData = useMemo(() => {
    const node = (c: BoardCategory, isLeaf: boolean) => ({ key: c.id, title: c.categoryValue, isLeaf });
    const roots = filterCategoryTree(categoryTree(categories), keyword).map((root) => ({
      ...node(root, root.children.length === 0),
      children: root.children.map((c) => node(c, true)),
    }));
    return [...(withAll ? [{ key: ALL_CATEGORIES, title: bt.allCategories, isLeaf: true }] : []), ...roots];
  }, [categories, keyword, withAll]);
  const nothing = keyword.trim() !== '' && treeData.length === (withAll ? 1 : 0);

  return (
    <div className="board-categories" data-testid="board-categories">
      <Input
        className="board-category-search"
        prefix={<SearchOutlined />}
        placeholder={bt.categorySearch}
        aria-label={bt.categorySearch}
        allowClear
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
      />
      <Spin spinning={loading}>
        <Tree
          blockNode
          defaultExpandAll
          // Re-expand when the list or the filter changes what is shown.
          key={`${categories.length}:${keyword}`}
          className="board-category-tree"
          treeData={treeData}
          selectedKeys={[value]}
          onSelect={(_, { node }) => onChange(Number(node.key))}
          titleRender={(n) => (
            <span className="board-category-node" data-testid="board-category" data-id={n.key}>
              {n.key === ALL_CATEGORIES ? <AppstoreOutlined /> : <FolderOutlined />}
              <span className="board-category-name" title={String(n.title)}>
                {String(n.title)}
              </span>
            </span>
          )}
        />
        {nothing && <div className="board-category-none">{bt.noMatchingCategories}</div>}
      </Spin>
    </div>
  );
}

interface CategoryValues {
  categoryValue: string;
  parentId: number;
  sortNum?: number | null;
}

export interface CategoryTarget {
  record?: BoardCategory;
  /** A new category's parent. */
  parentId?: number;
}

/** Adds a category (name required, parent top level or a top-level category), or edits one (`record`). */
export function CategoryFormModal({ kind, target, categories, onClose }: { kind: BoardKind; target: CategoryTarget | null; categories: BoardCategory[]; onClose: () => void }) {
  const [form] = Form.useForm<CategoryValues>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const save = useMutation({
    mutationFn: (v: CategoryValues) =>
      saveBoardCategory({ id: record?.id ?? null, kind, categoryValue: v.categoryValue.trim(), parentId: v.parentId, sortNum: v.sortNum ?? null }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || bm.saveSuccess);
      onClose();
      await queryClient.invalidateQueries({ queryKey: boardKeys.categories(kind) });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const choices = parentChoices(categories, record);
  const initial: Partial<CategoryValues> = record
    ? { categoryValue: record.categoryValue, parentId: record.parentId, sortNum: record.sortNum }
    : { parentId: choices.some((c) => c.value === target?.parentId) ? target?.parentId : 0 };
  return (
    <Modal
      open={target !== null}
      title={record ? bt.editCategory : bt.addCategory}
      width={440}
      destroyOnHidden
      okText={bt.save}
      cancelText={bt.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<CategoryValues> form={form} layout="vertical" clearOnDestroy initialValues={initial} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Form.Item label={bt.categoryName} name="categoryValue" rules={[{ required: true, whitespace: true, message: bm.categoryNameRequired }]}>
        <Input placeholder={bm.categoryNameRequired} maxLength={BOARD_CATEGORY_NAME_MAX_LENGTH} autoComplete="off" />
      </Form.Item>
      <Form.Item label={bt.categoryParent} name="parentId" extra={bt.categoryParentHint}>
        <Select options={choices} data-testid="board-category-parent" />
      </Form.Item>
      <Form.Item label={bt.categorySort} name="sortNum">
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    </Modal>
  );
}

/**
 * 编辑分类: the category list as a two-level tree, each with edit and delete (是否删除此分类).
 * Administrators change every category; others the ones they created.
 */
export function CategoryListModal({
  kind,
  open,
  categories,
  loading,
  onClose,
  onDeleted,
}: {
  kind: BoardKind;
  open: boolean;
  categories: BoardCategory[];
  loading: boolean;
  onClose: () => void;
  onDeleted: (id: number) => void;
}) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const me = useUserInfo().data;
  const [target, setTarget] = useState<CategoryTarget | null>(null);

  // A refusal (sub-categories or boards left) is shown by the global handler with the server's message.
  const remove = useMutation({
    mutationFn: deleteBoardCategory,
    onSuccess: async (res, id) => {
      notifySuccess(res.msg || msg.deleted);
      onDeleted(id);
      await queryClient.invalidateQueries({ queryKey: boardKeys.categories(kind) });
    },
  });

  const confirmRemove = (c: BoardCategory) =>
    modal.confirm({
      title: bt.confirmTitle,
      content: bm.confirmDeleteCategory,
      okText: bt.confirm,
      cancelText: bt.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(c.id).catch(() => undefined),
    });

  const mayChange = (c: BoardCategory) => me?.isAdministrator || (me != null && c.createUserId === me.id);
  const stop = (fn: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn();
  };
  const byId = useMemo(() => new Map(categories.map((c) => [c.id, c])), [categories]);
  const treeData = useMemo(
    () =>
      categoryTree(categories).map((root) => ({
        key: root.id,
        title: root.categoryValue,
        children: root.children.map((c) => ({ key: c.id, title: c.categoryValue, isLeaf: true })),
        isLeaf: root.children.length === 0,
      })),
    [categories],
  );

  return (
    <Modal open={open} title={bt.categoryList} width={520} footer={null} onCancel={onClose} destroyOnHidden>
      <div className="board-category-list" data-testid="board-category-list">
        <Button block type="dashed" icon={<PlusOutlined />} className="board-category-list-add" onClick={() => setTarget({ parentId: 0 })}>
          {bt.addCategory}
        </Button>
        <Spin spinning={loading}>
          {categories.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={bt.noCategories} />
          ) : (
            <Tree
              blockNode
              defaultExpandAll
              selectable={false}
              key={categories.length}
              className="board-category-tree"
              treeData={treeData}
              titleRender={(n) => {
                const c = byId.get(Number(n.key));
                return (
                  <span className="board-category-node" data-testid="board-category-item" data-id={n.key}>
                    <FolderOutlined />
                    <span className="board-category-name" title={String(n.title)}>
                      {String(n.title)}
                    </span>
                    {c && mayChange(c) && (
                      <span className="board-category-actions">
                        <Tooltip title={bt.editCategory}>
                          <Button type="text" size="small" icon={<EditOutlined />} aria-label={bt.editCategory} onClick={stop(() => setTarget({ record: c }))} />
                        </Tooltip>
                        <Tooltip title={bt.delete}>
                          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={bt.delete} onClick={stop(() => confirmRemove(c))} />
                        </Tooltip>
                      </span>
                    )}
                  </span>
                );
              }}
            />
          )}
        </Spin>
      </div>
      <CategoryFormModal kind={kind} target={target} categories={categories} onClose={() => setTarget(null)} />
    </Modal>
  );
}
