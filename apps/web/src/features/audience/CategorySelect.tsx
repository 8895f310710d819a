import { useState } from 'react';
import { Button, Divider, Input, Select, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { addAudienceCategory, audienceKeys, fetchAudienceCategories } from './api.ts';
import { aum } from './messages.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';

/** 人群分类 picker with 新增分类 in its dropdown. */
export function CategorySelect({ value, onChange }: { value?: number; onChange?: (id: number) => void }) {
  const queryClient = useQueryClient();
  const categories = useQuery({ queryKey: audienceKeys.categories, queryFn: fetchAudienceCategories });
  const [name, setName] = useState('');
  const add = async () => {
    if (!name.trim()) return notifyError(new Error(aum.categoryNameRequired));
    try {
      const r = await addAudienceCategory(name.trim());
      notifySuccess(r.msg);
      setName('');
      await queryClient.invalidateQueries({ queryKey: audienceKeys.categories });
      onChange?.(r.data.id);
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <Select
      style={{ width: 180 }}
      value={value}
      onChange={onChange}
      data-testid="audience-category"
      options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
      popupRender={(menu) => (
        <>
          {menu}
          <Divider style={{ margin: '8px 0' }} />
          <Space style={{ padding: '0 8px 4px' }}>
            <Input
              placeholder={aum.newCategoryName}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => e.stopPropagation()}
              data-testid="audience-category-name"
            />
            <Button type="text" icon={<PlusOutlined />} onClick={add} data-testid="audience-category-add">
              {aum.newCategory}
            </Button>
          </Space>
        </>
      )}
    />
  );
}
