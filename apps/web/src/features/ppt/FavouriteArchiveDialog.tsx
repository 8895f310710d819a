import { useState } from 'react';
import { Button, DatePicker, Divider, Form, Input, Modal, Select, Space, type ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { PPT_NAME_MAX_LENGTH, PPT_VISUAL_TYPES, pptSaveSchema, type Ppt } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { fetchPptCategories, pptKeys, savePpt, savePptCategory } from './api.ts';
import { pm, pt } from './messages.ts';

export interface FavouriteArchiveDialogProps {
  open: boolean;
  mode: 'favourite' | 'archive';
  /** The slideshow being viewed. */
  source: Ppt;
  onClose: () => void;
  onDone?: () => void;
}

interface Values {
  ppName: string;
  cateId: number;
  month?: Dayjs | null;
}

export const MONTH_FORMAT = 'YYYY-MM';

/** A category select whose popup ends with an inline 新增分类 (name + 添加); the new category is selected. */
function CategorySelect({ visualType, value, onChange }: { visualType: 1 | 2; value?: number; onChange?: (id: number) => void }) {
  const queryClient = useQueryClient();
  const categories = useQuery({ queryKey: pptKeys.categories(visualType), queryFn: () => fetchPptCategories(visualType), staleTime: 0 });
  const [name, setName] = useState('');
  const [open, setOpen] = useState(false);
  // The server checks the name (请填写分类名) and answers with the message: it is sent first (spec 1 §5).
  const add = useMutation({
    mutationFn: () => savePptCategory({ visualType, classifyName: name.trim() }),
    onSuccess: async (res) => {
      setName('');
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: pptKeys.categories(visualType) });
      onChange?.(res.data.id);
    },
  });
  return (
    <Select
      value={value}
      onChange={onChange}
      open={open}
      onOpenChange={setOpen}
      loading={categories.isFetching}
      data-testid="ppt-dialog-category"
      options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.classifyName }))}
      popupRender={(menu) => (
        <>
          {menu}
          <Divider style={{ margin: '8px 0' }} />
          <Space.Compact style={{ width: '100%', padding: '0 8px 4px' }}>
            <Input
              placeholder={pt.newCategoryPlaceholder}
              value={name}
              maxLength={50}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => e.stopPropagation()}
              data-testid="ppt-dialog-new-category"
            />
            <Button icon={<PlusOutlined />} loading={add.isPending} onClick={() => add.mutate()} data-testid="ppt-dialog-add-category">
              {pt.add}
            </Button>
          </Space.Compact>
        </>
      )}
    />
  );
}

/**
 * 收藏幻灯片 / 归档幻灯片 (spec 1 §2.10, §5): saves a favourite (visualType 1) or an archive
 * (visualType 2) of the slideshow being viewed into one of the caller's categories
 * (默认分类 first). Name required (请填写幻灯片名称); archives carry a month, by default the
 * slideshow's own or else the current one.
 */
export function FavouriteArchiveDialog({ open, mode, source, onClose, onDone }: FavouriteArchiveDialogProps) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const visualType = mode === 'favourite' ? PPT_VISUAL_TYPES.favourite : PPT_VISUAL_TYPES.archive;
  const save = useMutation({
    mutationFn: (v: Values) =>
      savePpt({
        ppName: v.ppName.trim(),
        ppMonth: mode === 'archive' ? (v.month ?? dayjs()).format(MONTH_FORMAT) : source.ppMonth,
        cateId: v.cateId,
        visualIds: source.visualIds,
        visualType,
        sourceId: source.id,
        settings: source.settings,
      }),
    onSuccess: async () => {
      notifySuccess(mode === 'favourite' ? pm.favourited : pm.archived);
      onClose();
      onDone?.();
      await queryClient.invalidateQueries({ queryKey: pptKeys.listAll });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const initialMonth = source.ppMonth ? dayjs(source.ppMonth, MONTH_FORMAT) : dayjs();

  return (
    <Modal
      open={open}
      title={mode === 'favourite' ? pt.favouriteTitle : pt.archiveTitle}
      width={460}
      destroyOnHidden
      okText={pt.ok}
      cancelText={pt.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending, ...({ 'data-testid': 'ppt-dialog-ok' } as ButtonProps) }}
      modalRender={(dom) => (
        <Form<Values>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={{ ppName: source.ppName, cateId: 0, month: initialMonth }}
          onFinish={(v) => save.mutate(v)}
        >
          {dom}
        </Form>
      )}
    >
      <div data-testid="ppt-favourite-dialog" data-mode={mode}>
        <Form.Item label={pt.name} name="ppName" rules={zodRules(pptSaveSchema, 'ppName')}>
          <Input placeholder={pt.namePlaceholder} maxLength={PPT_NAME_MAX_LENGTH} autoComplete="off" data-testid="ppt-dialog-name" />
        </Form.Item>
        <Form.Item label={pt.category} name="cateId">
          <CategorySelect visualType={visualType} />
        </Form.Item>
        {mode === 'archive' && (
          <Form.Item label={pt.archiveMonth} name="month" rules={[{ required: true, message: pt.monthRequired }]}>
            <DatePicker picker="month" format={MONTH_FORMAT} style={{ width: '100%' }} allowClear={false} data-testid="ppt-dialog-month" />
          </Form.Item>
        )}
      </div>
    </Modal>
  );
}
