import { useState } from 'react';
import { Button, Cascader, Form, Space, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import { CATEGORY_ROOT, type CubeCategory } from '@shutu/contracts';
import { categoryTree } from '../../../shared/categories/tree.ts';
import { t } from '../../../shared/messages.ts';
import { CategoryFormModal, type CategoryTarget } from '../CategoryTree.tsx';
import { em } from './messages.ts';

/** The category cascader's options: top-level categories with their children. */
export function categoryOptions(categories: readonly CubeCategory[]) {
  return categoryTree(categories).map((root) => ({
    value: root.id,
    label: root.wsName,
    children: root.children.length > 0 ? root.children.map((c) => ({ value: c.id, label: c.wsName })) : undefined,
  }));
}

/** The cascader path of a category: [parent, child] or [top-level]. */
export function categoryPath(list: readonly CubeCategory[], id: number | null | undefined): number[] | undefined {
  const c = list.find((x) => x.id === id);
  if (!c) return undefined;
  return c.parentId ? [c.parentId, c.id] : [c.id];
}

/**
 * 分类 of the dataset form: the cascader and, beside it, 新增分类 (spec 2 §2, §5 "Add category":
 * name required 请填写分类名, parent top level or another category). The new category is
 * selected once saved. Its parent defaults to the top-level category of the one selected.
 */
export function CategoryField({ form, categories }: { form: FormInstance; categories: readonly CubeCategory[] }) {
  const [target, setTarget] = useState<CategoryTarget | null>(null);
  const open = () => {
    const path = form.getFieldValue('category') as number[] | undefined;
    setTarget({ parentId: path?.[0] ?? CATEGORY_ROOT });
  };
  return (
    <Form.Item label={em.category} required>
      <Space.Compact block>
        <Form.Item name="category" noStyle>
          <Cascader options={categoryOptions(categories)} placeholder={em.categoryPlaceholder} changeOnSelect data-testid="ds-category" />
        </Form.Item>
        <Tooltip title={t.dsetAddCategory}>
          <Button icon={<PlusOutlined />} aria-label={t.dsetAddCategory} onClick={open} data-testid="ds-add-category" />
        </Tooltip>
      </Space.Compact>
      <CategoryFormModal
        target={target}
        categories={[...categories]}
        onClose={() => setTarget(null)}
        onSaved={(saved) => form.setFieldValue('category', categoryPath([...categories.filter((c) => c.id !== saved.id), saved], saved.id))}
      />
    </Form.Item>
  );
}
