import { useEffect } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { BOARD_TITLE_MAX_LENGTH, boardSaveSchema, type BoardKind } from '@shutu/contracts';
import { boardKeys, fetchBoardCategories } from '../api.ts';
import { categoryOptions } from '../categories.tsx';
import { et } from './messages.ts';
import { zodRules } from '../../../shared/zod-rules.ts';

interface Props {
  open: boolean;
  kind: BoardKind;
  title: string;
  saving: boolean;
  onCancel(): void;
  onOk(values: { title: string; categoryId: number }): void;
}

/** Asked at the first save of a board opened without a category (`?cg=`): its name and category. */
export function SaveDialog({ open, kind, title, saving, onCancel, onOk }: Props) {
  const [form] = Form.useForm<{ title: string; categoryId: number }>();
  const categories = useQuery({ queryKey: boardKeys.categories(kind), queryFn: () => fetchBoardCategories(kind), enabled: open });
  const options = categoryOptions(categories.data ?? []);

  useEffect(() => {
    if (open) form.setFieldsValue({ title });
  }, [open, title, form]);

  return (
    <Modal
      open={open}
      title={et.saveTitle}
      okText={et.ok}
      cancelText={et.cancel}
      confirmLoading={saving}
      onCancel={onCancel}
      onOk={() => form.validateFields().then(onOk, () => undefined)}
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="title" label={et.name} rules={zodRules(boardSaveSchema, 'title')}>
          <Input maxLength={BOARD_TITLE_MAX_LENGTH} />
        </Form.Item>
        <Form.Item name="categoryId" label={et.category} rules={[{ required: true, message: et.categoryRequired }]}>
          <Select
            data-testid="save-category"
            loading={categories.isLoading}
            options={options}
            placeholder={et.categoryRequired}
            notFoundContent={et.noCategories}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
