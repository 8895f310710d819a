import { useState } from 'react';
import { App, Button, Card, Input, Menu, Modal, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, FolderOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PPT_CATEGORY, type PptCategory } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { deletePptCategory, fetchPptCategories, pptKeys, savePptCategory } from './api.ts';
import { pm, pt } from './messages.ts';

/** All categories of the list (the side's first entry). */
export const ALL_PPT_CATEGORIES = -1;

/** 新增分类 / 重命名: one name field; the server checks the name (请填写分类名). */
function CategoryNameModal({ visualType, target, onClose }: { visualType: 1 | 2; target: PptCategory | 'new' | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(target && target !== 'new' ? target.classifyName : '');
  const save = useMutation({
    mutationFn: () => savePptCategory({ id: target && target !== 'new' ? target.id : null, visualType, classifyName: name.trim() }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: pptKeys.categories(visualType) });
    },
  });
  return (
    <Modal
      open={target !== null}
      title={target === 'new' ? pt.addCategory : pt.renameCategory}
      width={400}
      destroyOnHidden
      okText={pt.save}
      cancelText={pt.cancel}
      onCancel={onClose}
      onOk={() => save.mutate()}
      okButtonProps={{ loading: save.isPending }}
    >
      <Input
        value={name}
        maxLength={50}
        placeholder={pt.categoryName}
        aria-label={pt.categoryName}
        onChange={(e) => setName(e.target.value)}
        onPressEnter={() => save.mutate()}
        data-testid="ppt-category-name"
      />
    </Modal>
  );
}

/**
 * The caller's favourite or archive categories: 全部, 默认分类, then their own, each own one
 * with 重命名 and 删除 (its records move to 默认分类).
 */
export function PptCategorySide({ visualType, value, onChange }: { visualType: 1 | 2; value: number; onChange: (id: number) => void }) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const categories = useQuery({ queryKey: pptKeys.categories(visualType), queryFn: () => fetchPptCategories(visualType), staleTime: 0 });
  const [target, setTarget] = useState<PptCategory | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: deletePptCategory,
    onSuccess: async (_res, id) => {
      notifySuccess(pm.deleted);
      if (id === value) onChange(ALL_PPT_CATEGORIES);
      await queryClient.invalidateQueries({ queryKey: pptKeys.categories(visualType) });
      await queryClient.invalidateQueries({ queryKey: pptKeys.listAll });
    },
  });
  const confirmDelete = (c: PptCategory) =>
    modal.confirm({
      title: pt.deleteCategory,
      content: pt.confirmDeleteCategory(c.classifyName),
      okText: pt.ok,
      cancelText: pt.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(c.id).catch(() => undefined),
    });

  const items = [
    { key: String(ALL_PPT_CATEGORIES), icon: <FolderOutlined />, label: pt.allCategories },
    ...(categories.data ?? []).map((c) => ({
      key: String(c.id),
      icon: <FolderOutlined />,
      label: (
        <span className="ppt-category-item" data-testid="ppt-category" data-name={c.classifyName}>
          <span className="ppt-category-name">{c.classifyName}</span>
          {c.id !== DEFAULT_PPT_CATEGORY.id && (
            <span className="ppt-category-actions" onClick={(e) => e.stopPropagation()}>
              <Tooltip title={pt.renameCategory}>
                <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${pt.renameCategory} ${c.classifyName}`} onClick={() => setTarget(c)} />
              </Tooltip>
              <Tooltip title={pt.deleteCategory}>
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`${pt.deleteCategory} ${c.classifyName}`}
                  onClick={() => confirmDelete(c)}
                />
              </Tooltip>
            </span>
          )}
        </span>
      ),
    })),
  ];

  return (
    <Card
      size="small"
      className="split-side ppt-side"
      title={pt.categories}
      extra={
        <Tooltip title={pt.addCategory}>
          <Button
            type="text"
            size="small"
            icon={<PlusOutlined />}
            aria-label={pt.addCategory}
            onClick={() => setTarget('new')}
            data-testid="ppt-category-add"
          />
        </Tooltip>
      }
    >
      <Menu mode="inline" className="ppt-category-menu" selectedKeys={[String(value)]} items={items} onClick={({ key }) => onChange(Number(key))} />
      <CategoryNameModal
        key={target === null ? 'closed' : target === 'new' ? 'new' : target.id}
        visualType={visualType}
        target={target}
        onClose={() => setTarget(null)}
      />
    </Card>
  );
}
