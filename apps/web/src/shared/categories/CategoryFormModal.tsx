import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { notifySuccess } from '../notify.ts';
import { applyFieldErrors } from '../form-errors.ts';
import { parentChoices, TOP_LEVEL, type TreeCategory } from './tree.ts';

/** What the dialog opens on: a category to edit, or a new category's parent. */
export interface CategoryTarget<C> {
  record?: C;
  /** A new category's parent (the selected top-level category). */
  parentId?: number;
}

/** The words of the dialog, from the feature's catalogue. */
export interface CategoryFormTexts {
  add: string;
  edit: string;
  name: string;
  nameRequired: string;
  parent: string;
  parentHint: string;
  top: string;
  sort: string;
  save: string;
  cancel: string;
  /** The success notice when the server sends no message. */
  saved: string;
}

/** What the dialog saves (a new category has id null). */
export interface CategoryFormValues {
  id: number | null;
  name: string;
  parentId: number;
  sortNum: number | null;
}

export interface CategoryFormModalProps<C extends TreeCategory> {
  target: CategoryTarget<C> | null;
  categories: readonly C[];
  onClose: () => void;
  nameOf: (c: C) => string;
  /** The name's field in the save payload, so the server's field errors land under it. */
  nameField: string;
  nameMaxLength: number;
  parentTestId: string;
  texts: CategoryFormTexts;
  save: (values: CategoryFormValues) => Promise<{ msg: string }>;
  /** The category list to read again after a save. */
  invalidate: QueryKey;
}

type FormValues = Record<string, string | number | null | undefined>;

/** Adds a category (name required, parent top level or a top-level category), or edits one (`record`). */
export function CategoryFormModal<C extends TreeCategory>({
  target,
  categories,
  onClose,
  nameOf,
  nameField,
  nameMaxLength,
  parentTestId,
  texts,
  save: saveCategory,
  invalidate,
}: CategoryFormModalProps<C>) {
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const save = useMutation({
    mutationFn: (v: FormValues) =>
      saveCategory({
        id: record?.id ?? null,
        name: String(v[nameField] ?? '').trim(),
        parentId: v.parentId as number,
        sortNum: (v.sortNum as number | null | undefined) ?? null,
      }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || texts.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: invalidate });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const choices = parentChoices(categories, nameOf, texts.top, record);
  const initial: FormValues = record
    ? { [nameField]: nameOf(record), parentId: record.parentId, sortNum: record.sortNum }
    : { parentId: choices.some((c) => c.value === target?.parentId) ? target?.parentId : TOP_LEVEL };
  return (
    <Modal
      open={target !== null}
      title={record ? texts.edit : texts.add}
      width={440}
      destroyOnHidden
      okText={texts.save}
      cancelText={texts.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<FormValues> form={form} layout="vertical" clearOnDestroy initialValues={initial} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Form.Item label={texts.name} name={nameField} rules={[{ required: true, whitespace: true, message: texts.nameRequired }]}>
        <Input placeholder={texts.nameRequired} maxLength={nameMaxLength} autoComplete="off" />
      </Form.Item>
      <Form.Item label={texts.parent} name="parentId" extra={texts.parentHint}>
        <Select options={choices} data-testid={parentTestId} />
      </Form.Item>
      <Form.Item label={texts.sort} name="sortNum">
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    </Modal>
  );
}
