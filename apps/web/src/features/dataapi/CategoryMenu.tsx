import { useState } from 'react';
import { App, Button, Input, Menu, Modal, Popconfirm, Space } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataApiCategory } from '@shutu/contracts';
import { errorText } from '../../shared/notify.ts';
import { dataApiKeys, deleteCategory, saveCategory } from './api.ts';
import { am } from './messages.ts';

interface Props {
  categories: DataApiCategory[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
}

/** The category menu: 全部分类 first, then each category with its count; add, rename, delete (是否删除此分类). */
export function CategoryMenu({ categories, value, onChange }: Props) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ id: number | null; name: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: dataApiKeys.categories });
  const save = useMutation({
    mutationFn: () => saveCategory(editing!.id, editing!.name),
    onSuccess: () => {
      message.success(am.saved);
      setEditing(null);
      void refresh();
    },
    onError: (e) => message.error(errorText(e)),
  });
  const remove = async (id: number) => {
    try {
      await deleteCategory(id);
      message.success(am.deleted);
      if (value === id) onChange(undefined);
      void refresh();
    } catch (e) {
      message.error(errorText(e));
    }
  };

  const items = [
    { key: 'all', label: am.allCategories },
    ...categories.map((c) => ({
      key: String(c.id),
      label: (
        <div className="dataapi-category" data-testid={`dataapi-category-${c.id}`}>
          <span className="dataapi-category-name">
            {c.categoryName}
            <span className="dataapi-category-count">{c.apiCount}</span>
          </span>
          <Space size={2} className="dataapi-category-tools" onClick={(e) => e.stopPropagation()}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={am.editCategory}
              onClick={() => setEditing({ id: c.id, name: c.categoryName })}
            />
            <Popconfirm title={am.deleteCategoryConfirm} onConfirm={() => remove(c.id)}>
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={am.delete} />
            </Popconfirm>
          </Space>
        </div>
      ),
    })),
  ];

  return (
    <div className="dataapi-categories">
      <Button block icon={<PlusOutlined />} onClick={() => setEditing({ id: null, name: '' })} data-testid="dataapi-add-category">
        {am.addCategory}
      </Button>
      <Menu
        mode="inline"
        selectedKeys={[value === undefined ? 'all' : String(value)]}
        items={items}
        onClick={({ key }) => onChange(key === 'all' ? undefined : Number(key))}
      />
      <Modal
        open={editing !== null}
        title={editing?.id ? am.editCategory : am.addCategory}
        onCancel={() => setEditing(null)}
        onOk={() => save.mutate()}
        confirmLoading={save.isPending}
        okButtonProps={{ disabled: !editing?.name.trim() }}
        destroyOnHidden
      >
        <Input
          autoFocus
          placeholder={am.categoryName}
          value={editing?.name ?? ''}
          maxLength={100}
          onChange={(e) => setEditing((cur) => (cur ? { ...cur, name: e.target.value } : cur))}
          onPressEnter={() => editing?.name.trim() && save.mutate()}
          data-testid="dataapi-category-name"
        />
      </Modal>
    </div>
  );
}
