import { useState } from 'react';
import { Button, Spin } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { CATEGORY_NAME_MAX_LENGTH, CATEGORY_ROOT, datasetMessages, type CubeCategory } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import {
  CategoryFormModal as SharedCategoryFormModal,
  type CategoryFormTexts,
  type CategoryTarget as SharedCategoryTarget,
} from '../../shared/categories/CategoryFormModal.tsx';
import { CategoryTreeView, useCategoryRemoval } from '../../shared/categories/CategoryTreeView.tsx';
import { mayChangeCategory, parentChoices as sharedParentChoices } from '../../shared/categories/tree.ts';
import { useUserInfo } from '../../shared/session.ts';
import { datasetKeys, deleteCategory, saveCategory } from './api.ts';

/** 全部 is the entry with id 0 (the list then shows every category). */
export const ALL_CATEGORIES = 0;

const nameOf = (c: CubeCategory) => c.wsName;
const ALL_ENTRY = { id: ALL_CATEGORIES, label: t.dsetAllCategories };

const FORM_TEXTS: CategoryFormTexts = {
  add: t.dsetAddCategory,
  edit: t.dsetEditCategory,
  name: t.dsetCategoryName,
  nameRequired: datasetMessages.categoryNameRequired,
  parent: t.dsetCategoryParent,
  parentHint: t.dsetCategoryParentHint,
  top: t.dsetCategoryTop,
  sort: t.dsetCategorySort,
  save: t.save,
  cancel: t.cancel,
  saved: msg.saved,
};

/**
 * The parents a category may take (spec 2 §5: top level or another category, never itself;
 * two levels only): top level, or a top-level category other than the one edited. A
 * category that has sub-categories stays top level.
 */
export function parentChoices(categories: readonly CubeCategory[], editing?: CubeCategory): { value: number; label: string }[] {
  return sharedParentChoices(categories, nameOf, t.dsetCategoryTop, editing);
}

/** The name of a category, for the dialogs (全部 for 0). */
export function categoryName(categories: readonly CubeCategory[], id: number): string {
  if (id === ALL_CATEGORIES) return t.dsetAllCategories;
  return categories.find((c) => c.id === id)?.wsName ?? '';
}

export type CategoryTarget = SharedCategoryTarget<CubeCategory>;

/** Adds a category, or edits one (`record`); `onSaved` gets the saved category (the editor selects a new one). */
export function CategoryFormModal({
  target,
  categories,
  onClose,
  onSaved,
}: {
  target: CategoryTarget | null;
  categories: CubeCategory[];
  onClose: () => void;
  onSaved?: (category: CubeCategory) => void;
}) {
  return (
    <SharedCategoryFormModal
      target={target}
      categories={categories}
      onClose={onClose}
      nameOf={nameOf}
      nameField="wsName"
      nameMaxLength={CATEGORY_NAME_MAX_LENGTH}
      parentTestId="category-parent"
      texts={FORM_TEXTS}
      save={async (v) => {
        const res = await saveCategory({ id: v.id, wsName: v.name, parentId: v.parentId, sortNum: v.sortNum });
        onSaved?.(res.data);
        return res;
      }}
      invalidate={datasetKeys.categories}
    />
  );
}

interface Props {
  categories: CubeCategory[];
  loading: boolean;
  value: number;
  onChange: (id: number) => void;
  /** Add, edit and delete categories (the list page); the grant tab only picks. */
  editable: boolean;
  /** Offer 全部 first (the list page); the grant tab saves per category and leaves it out. */
  withAll?: boolean;
}

/** The two-level category tree: 全部 first, then the top-level categories with their sub-categories. */
export function CategoryTree({ categories, loading, value, onChange, editable, withAll = true }: Props) {
  const me = useUserInfo().data;
  const [target, setTarget] = useState<CategoryTarget | null>(null);
  // A refusal (409: sub-categories or datasets left) is shown by the global handler with the server's message.
  const confirmRemove = useCategoryRemoval({
    remove: deleteCategory,
    invalidate: datasetKeys.categories,
    onDeleted: (id) => {
      if (value === id) onChange(ALL_CATEGORIES);
    },
    texts: { confirmTitle: t.confirmTitle, confirmDelete: t.confirmDelete, confirm: t.confirm, cancel: t.cancel },
  });

  const selected = categories.find((c) => c.id === value);
  const addParent = selected ? (selected.parentId === CATEGORY_ROOT ? selected.id : selected.parentId) : CATEGORY_ROOT;

  return (
    <div className="dset-categories" data-testid="dset-categories">
      {editable && (
        <Button block type="dashed" icon={<PlusOutlined />} className="dset-categories-add" onClick={() => setTarget({ parentId: addParent })}>
          {t.dsetAddCategory}
        </Button>
      )}
      <Spin spinning={loading}>
        <CategoryTreeView
          categories={categories}
          nameOf={nameOf}
          nodeTestId="dset-category"
          all={withAll ? ALL_ENTRY : undefined}
          value={value}
          onChange={onChange}
          actions={
            editable
              ? {
                  mayChange: (c) => mayChangeCategory(me, c),
                  editLabel: t.dsetEditCategory,
                  deleteLabel: t.delete,
                  onEdit: (c) => setTarget({ record: c }),
                  onDelete: confirmRemove,
                }
              : undefined
          }
        />
      </Spin>
      {editable && <CategoryFormModal target={target} categories={categories} onClose={() => setTarget(null)} />}
    </div>
  );
}
