import { useState } from 'react';
import { Button, Empty, Input, Modal, Spin } from 'antd';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { ALL_CATEGORIES, BOARD_CATEGORY_NAME_MAX_LENGTH, type BoardCategory, type BoardKind } from '@shutu/contracts';
import {
  CategoryFormModal as SharedCategoryFormModal,
  type CategoryFormTexts,
  type CategoryTarget as SharedCategoryTarget,
} from '../../shared/categories/CategoryFormModal.tsx';
import { CategoryTreeView, useCategoryRemoval } from '../../shared/categories/CategoryTreeView.tsx';
import { categoryTree, mayChangeCategory } from '../../shared/categories/tree.ts';
import { useUserInfo } from '../../shared/session.ts';
import { boardKeys, deleteBoardCategory, saveBoardCategory } from './api.ts';
import { bm, bt } from './messages.ts';

const nameOf = (c: BoardCategory) => c.categoryValue;
const ALL_ENTRY = { id: ALL_CATEGORIES, label: bt.allCategories };

const FORM_TEXTS: CategoryFormTexts = {
  add: bt.addCategory,
  edit: bt.editCategory,
  name: bt.categoryName,
  nameRequired: bm.categoryNameRequired,
  parent: bt.categoryParent,
  parentHint: bt.categoryParentHint,
  top: bt.categoryTop,
  sort: bt.categorySort,
  save: bt.save,
  cancel: bt.cancel,
  saved: bm.saveSuccess,
};

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
        <CategoryTreeView
          categories={categories}
          nameOf={nameOf}
          nodeTestId="board-category"
          all={withAll ? ALL_ENTRY : undefined}
          keyword={keyword}
          noMatch={bt.noMatchingCategories}
          value={value}
          onChange={onChange}
        />
      </Spin>
    </div>
  );
}

export type CategoryTarget = SharedCategoryTarget<BoardCategory>;

/** Adds a category (name required, parent top level or a top-level category), or edits one (`record`). */
export function CategoryFormModal({
  kind,
  target,
  categories,
  onClose,
}: {
  kind: BoardKind;
  target: CategoryTarget | null;
  categories: BoardCategory[];
  onClose: () => void;
}) {
  return (
    <SharedCategoryFormModal
      target={target}
      categories={categories}
      onClose={onClose}
      nameOf={nameOf}
      nameField="categoryValue"
      nameMaxLength={BOARD_CATEGORY_NAME_MAX_LENGTH}
      parentTestId="board-category-parent"
      texts={FORM_TEXTS}
      save={(v) => saveBoardCategory({ id: v.id, kind, categoryValue: v.name, parentId: v.parentId, sortNum: v.sortNum })}
      invalidate={boardKeys.categories(kind)}
    />
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
  const me = useUserInfo().data;
  const [target, setTarget] = useState<CategoryTarget | null>(null);
  const confirmRemove = useCategoryRemoval({
    remove: deleteBoardCategory,
    invalidate: boardKeys.categories(kind),
    onDeleted,
    texts: { confirmTitle: bt.confirmTitle, confirmDelete: bm.confirmDeleteCategory, confirm: bt.confirm, cancel: bt.cancel },
  });

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
            <CategoryTreeView
              categories={categories}
              nameOf={nameOf}
              nodeTestId="board-category-item"
              actions={{
                mayChange: (c) => mayChangeCategory(me, c),
                editLabel: bt.editCategory,
                deleteLabel: bt.delete,
                onEdit: (c) => setTarget({ record: c }),
                onDelete: confirmRemove,
              }}
            />
          )}
        </Spin>
      </div>
      <CategoryFormModal kind={kind} target={target} categories={categories} onClose={() => setTarget(null)} />
    </Modal>
  );
}
