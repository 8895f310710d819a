import { useMemo, type Key, type MouseEvent, type ReactNode } from 'react';
import { App, Button, Tooltip, Tree } from 'antd';
import { AppstoreOutlined, DeleteOutlined, EditOutlined, FolderOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { msg } from '../messages.ts';
import { notifySuccess } from '../notify.ts';
import { categoryTree, filterCategoryTree, type TreeCategory } from './tree.ts';
import './categories.css';

/** Edit and delete on the categories the user may change. */
export interface CategoryNodeActions<C> {
  mayChange: (c: C) => boolean;
  editLabel: string;
  deleteLabel: string;
  onEdit: (c: C) => void;
  onDelete: (c: C) => void;
}

export interface CategoryTreeViewProps<C extends TreeCategory> {
  categories: readonly C[];
  /** Keep it stable (a module-level function): the tree is rebuilt when it changes. */
  nameOf: (c: C) => string;
  nodeTestId: string;
  /** A 全部 entry first, with its id. */
  all?: { id: number; label: string };
  /** Shows only the categories whose name holds it (a matching top-level one with all its children). */
  keyword?: string;
  /** Said when `keyword` leaves nothing. */
  noMatch?: ReactNode;
  /** The selected category; without onChange the tree only shows. */
  value?: number;
  onChange?: (id: number) => void;
  actions?: CategoryNodeActions<C>;
}

/** A two-level category tree, opened out: optional 全部 first, then the top-level categories with their sub-categories. */
export function CategoryTreeView<C extends TreeCategory>({
  categories,
  nameOf,
  nodeTestId,
  all,
  keyword,
  noMatch,
  value,
  onChange,
  actions,
}: CategoryTreeViewProps<C>) {
  const allId = all?.id;
  const allLabel = all?.label;
  const roots = useMemo(() => filterCategoryTree(categoryTree(categories), keyword ?? '', nameOf), [categories, keyword, nameOf]);
  const treeData = useMemo(() => {
    const node = (c: C, isLeaf: boolean) => ({ key: c.id, title: nameOf(c), category: c as C | null, isLeaf });
    const tops = roots.map((root) => ({ ...node(root, root.children.length === 0), children: root.children.map((c) => node(c, true)) }));
    return [...(allId === undefined ? [] : [{ key: allId, title: allLabel, category: null, isLeaf: true }]), ...tops];
  }, [roots, nameOf, allId, allLabel]);
  const nothing = (keyword ?? '').trim() !== '' && roots.length === 0;
  // Without onChange nothing is selectable (the same props as a tree that never selects).
  const selection = onChange
    ? { selectedKeys: [value ?? -1], onSelect: (_: Key[], { node }: { node: { key: Key } }) => onChange(Number(node.key)) }
    : { selectable: false };
  const stop = (fn: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn();
  };

  return (
    <>
      <Tree
        blockNode
        defaultExpandAll
        // Re-expand when the list or the filter changes what is shown.
        key={`${categories.length}:${keyword ?? ''}`}
        className="category-tree"
        treeData={treeData}
        {...selection}
        titleRender={(n) => (
          <span className="category-node" data-testid={nodeTestId} data-id={n.key}>
            {n.key === allId ? <AppstoreOutlined /> : <FolderOutlined />}
            <span className="category-name" title={String(n.title)}>
              {String(n.title)}
            </span>
            {actions && n.category && actions.mayChange(n.category) && (
              <span className="category-actions">
                <Tooltip title={actions.editLabel}>
                  <Button type="text" size="small" icon={<EditOutlined />} aria-label={actions.editLabel} onClick={stop(() => actions.onEdit(n.category!))} />
                </Tooltip>
                <Tooltip title={actions.deleteLabel}>
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={actions.deleteLabel}
                    onClick={stop(() => actions.onDelete(n.category!))}
                  />
                </Tooltip>
              </span>
            )}
          </span>
        )}
      />
      {nothing && <div className="category-none">{noMatch}</div>}
    </>
  );
}

export interface CategoryRemoval {
  remove: (id: number) => Promise<{ msg: string }>;
  /** The category list to read again after a delete. */
  invalidate: QueryKey;
  onDeleted?: (id: number) => void;
  texts: { confirmTitle: string; confirmDelete: string; confirm: string; cancel: string };
}

/** Deleting a category after a confirmation; returns what the delete button calls. */
export function useCategoryRemoval({ remove, invalidate, onDeleted, texts }: CategoryRemoval): (category: TreeCategory) => void {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  // A refusal (sub-categories or items left) is shown by the global handler with the server's message.
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: async (res, id) => {
      notifySuccess(res.msg || msg.deleted);
      onDeleted?.(id);
      await queryClient.invalidateQueries({ queryKey: invalidate });
    },
  });
  return (category) => {
    modal.confirm({
      title: texts.confirmTitle,
      content: texts.confirmDelete,
      okText: texts.confirm,
      cancelText: texts.cancel,
      okButtonProps: { danger: true },
      onOk: () => removal.mutateAsync(category.id).catch(() => undefined),
    });
  };
}
