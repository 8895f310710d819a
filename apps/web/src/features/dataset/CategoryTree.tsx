import { useMemo, useState, type MouseEvent } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Select, Spin, Tooltip, Tree } from 'antd';
import { AppstoreOutlined, DeleteOutlined, EditOutlined, FolderOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CATEGORY_NAME_MAX_LENGTH, CATEGORY_ROOT, categoryTree, datasetMessages, type CubeCategory } from '@shutu/contracts';
import { msg, t } from '../../app/messages.ts';
import { notifySuccess } from '../../app/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { useUserInfo } from '../auth/hooks.ts';
import { datasetKeys, deleteCategory, saveCategory } from './api.ts';

/** 全部 is the entry with id 0 (the list then shows every category). */
export const ALL_CATEGORIES = 0;

/**
 * The parents a category may take (spec 2 §5: top level or another category, never itself;
 * two levels only): top level, or a top-level category other than the one edited. A
 * category that has sub-categories stays top level.
 */
export function parentChoices(categories: readonly CubeCategory[], editing?: CubeCategory): { value: number; label: string }[] {
  const top = { value: CATEGORY_ROOT, label: t.dsetCategoryTop };
  if (editing && categories.some((c) => c.parentId === editing.id)) return [top];
  return [top, ...categories.filter((c) => c.parentId === CATEGORY_ROOT && c.id !== editing?.id).map((c) => ({ value: c.id, label: c.wsName }))];
}

/** The name of a category, for the dialogs (全部 for 0). */
export function categoryName(categories: readonly CubeCategory[], id: number): string {
  if (id === ALL_CATEGORIES) return t.dsetAllCategories;
  return categories.find((c) => c.id === id)?.wsName ?? '';
}

interface CategoryValues {
  wsName: string;
  parentId: number;
  sortNum?: number | null;
}

export interface CategoryTarget {
  record?: CubeCategory;
  /** A new category's parent (the selected top-level category). */
  parentId?: number;
}

/** Adds a category, or edits one (`record`). */
export function CategoryFormModal({ target, categories, onClose }: { target: CategoryTarget | null; categories: CubeCategory[]; onClose: () => void }) {
  const [form] = Form.useForm<CategoryValues>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const save = useMutation({
    mutationFn: (v: CategoryValues) => saveCategory({ id: record?.id ?? null, wsName: v.wsName.trim(), parentId: v.parentId, sortNum: v.sortNum ?? null }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: datasetKeys.categories });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const choices = parentChoices(categories, record);
  const initial: Partial<CategoryValues> = record
    ? { wsName: record.wsName, parentId: record.parentId, sortNum: record.sortNum }
    : { parentId: choices.some((c) => c.value === target?.parentId) ? target?.parentId : CATEGORY_ROOT };
  return (
    <Modal
      open={target !== null}
      title={record ? t.dsetEditCategory : t.dsetAddCategory}
      width={440}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<CategoryValues> form={form} layout="vertical" clearOnDestroy initialValues={initial} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Form.Item label={t.dsetCategoryName} name="wsName" rules={[{ required: true, whitespace: true, message: datasetMessages.categoryNameRequired }]}>
        <Input placeholder={datasetMessages.categoryNameRequired} maxLength={CATEGORY_NAME_MAX_LENGTH} autoComplete="off" />
      </Form.Item>
      <Form.Item label={t.dsetCategoryParent} name="parentId" extra={t.dsetCategoryParentHint}>
        <Select options={choices} data-testid="category-parent" />
      </Form.Item>
      <Form.Item label={t.dsetCategorySort} name="sortNum">
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    </Modal>
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
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const me = useUserInfo().data;
  const [target, setTarget] = useState<CategoryTarget | null>(null);

  // A refusal (409: sub-categories or datasets left) is shown by the global handler with the server's message.
  const remove = useMutation({
    mutationFn: deleteCategory,
    onSuccess: async (res, id) => {
      notifySuccess(res.msg || msg.deleted);
      if (value === id) onChange(ALL_CATEGORIES);
      await queryClient.invalidateQueries({ queryKey: datasetKeys.categories });
    },
  });

  const confirmRemove = (c: CubeCategory) =>
    modal.confirm({
      title: t.confirmTitle,
      content: t.confirmDelete,
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(c.id).catch(() => undefined),
    });

  const mayChange = (c: CubeCategory) => editable && (me?.isAdministrator || (me != null && c.createUserId === me.id));
  const stop = (fn: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn();
  };

  const treeData = useMemo(() => {
    const node = (c: CubeCategory, isLeaf: boolean) => ({ key: c.id, title: c.wsName, category: c, isLeaf });
    return [
      ...(withAll ? [{ key: ALL_CATEGORIES, title: t.dsetAllCategories, category: null, isLeaf: true }] : []),
      ...categoryTree(categories).map((root) => ({ ...node(root, root.children.length === 0), children: root.children.map((c) => node(c, true)) })),
    ];
  }, [categories, withAll]);

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
        <Tree
          blockNode
          defaultExpandAll
          key={categories.length}
          className="dset-category-tree"
          treeData={treeData}
          selectedKeys={[value]}
          onSelect={(_, { node }) => onChange(Number(node.key))}
          titleRender={(n) => (
            <span className="dset-category-node" data-testid="dset-category" data-id={n.key}>
              {n.key === ALL_CATEGORIES ? <AppstoreOutlined /> : <FolderOutlined />}
              <span className="dset-category-name" title={String(n.title)}>
                {String(n.title)}
              </span>
              {n.category && mayChange(n.category) && (
                <span className="dset-category-actions">
                  <Tooltip title={t.dsetEditCategory}>
                    <Button
                      type="text"
                      size="small"
                      icon={<EditOutlined />}
                      aria-label={t.dsetEditCategory}
                      onClick={stop(() => setTarget({ record: n.category! }))}
                    />
                  </Tooltip>
                  <Tooltip title={t.delete}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t.delete} onClick={stop(() => confirmRemove(n.category!))} />
                  </Tooltip>
                </span>
              )}
            </span>
          )}
        />
      </Spin>
      {editable && <CategoryFormModal target={target} categories={categories} onClose={() => setTarget(null)} />}
    </div>
  );
}
