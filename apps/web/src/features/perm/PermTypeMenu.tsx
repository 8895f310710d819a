import { useState, type MouseEvent } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Spin, Tooltip } from 'antd';
import { AppstoreOutlined, DeleteOutlined, EditOutlined, FolderOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { permMessages, permTypeSaveSchema, type PermType } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { deletePermType, permKeys, savePermType } from './api.ts';

/** 全部分类 is the entry with id 0. */
export const ALL_TYPES = 0;

/** Types in menu order: by sortNum, then by id. */
export function sortTypes(types: readonly PermType[]): PermType[] {
  return [...types].sort((a, b) => a.sortNum - b.sortNum || a.id - b.id);
}

interface TypeValues {
  typeName: string;
  sortNum?: number | null;
}

/** Adds a type, or renames one (`record`). */
function TypeFormModal({ target, onClose }: { target: { record?: PermType } | null; onClose: () => void }) {
  const [form] = Form.useForm<TypeValues>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const save = useMutation({
    mutationFn: (v: TypeValues) => savePermType({ id: record?.id ?? null, typeName: v.typeName.trim(), sortNum: v.sortNum ?? null }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: permKeys.all });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  return (
    <Modal
      open={target !== null}
      title={record ? t.permEditType : t.permAddType}
      width={420}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<TypeValues>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={record ? { typeName: record.typeName, sortNum: record.sortNum } : {}}
          onFinish={(v) => save.mutate(v)}
        >
          {dom}
        </Form>
      )}
    >
      <Form.Item label={t.permTypeName} name="typeName" rules={zodRules(permTypeSaveSchema, 'typeName')}>
        <Input placeholder={permMessages.typeNameRequired} maxLength={50} autoComplete="off" />
      </Form.Item>
      <Form.Item label={t.permTypeSort} name="sortNum" extra={t.permTypeSortHint}>
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    </Modal>
  );
}

interface Props {
  types: PermType[];
  loading: boolean;
  value: number;
  onChange: (typeId: number) => void;
  /** Add, rename and delete types (the manager); the select dialog only filters. */
  editable: boolean;
}

/** The category menu left of the group cards: 全部分类 first, then the types by sortNum. */
export function PermTypeMenu({ types, loading, value, onChange, editable }: Props) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<{ record?: PermType } | null>(null);

  // A refusal (409: groups still use the type) is shown by the global handler with the server's message.
  const remove = useMutation({
    mutationFn: deletePermType,
    onSuccess: async (res, id) => {
      notifySuccess(res.msg || msg.deleted);
      if (value === id) onChange(ALL_TYPES);
      await queryClient.invalidateQueries({ queryKey: permKeys.all });
    },
  });

  const confirmRemove = (type: PermType) =>
    modal.confirm({
      title: t.confirmTitle,
      content: permMessages.confirmDeleteType,
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(type.id).catch(() => undefined),
    });

  const stop = (fn: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn();
  };

  const entries = [{ id: ALL_TYPES, typeName: t.permAllTypes, sortNum: -1 }, ...sortTypes(types)];
  return (
    <div className="perm-types" data-testid="perm-types">
      {editable && (
        <Button block type="dashed" icon={<PlusOutlined />} className="perm-types-add" onClick={() => setTarget({})}>
          {t.permAddType}
        </Button>
      )}
      <Spin spinning={loading}>
        <ul className="perm-type-list" role="listbox" aria-label={t.permTypes}>
          {entries.map((type) => (
            <li
              key={type.id}
              role="option"
              aria-selected={value === type.id}
              tabIndex={0}
              className={`perm-type-item${value === type.id ? ' perm-type-item-active' : ''}`}
              onClick={() => onChange(type.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') onChange(type.id);
              }}
            >
              {type.id === ALL_TYPES ? <AppstoreOutlined /> : <FolderOutlined />}
              <span className="perm-type-name" title={type.typeName}>
                {type.typeName}
              </span>
              {editable && type.id !== ALL_TYPES && (
                <span className="perm-type-actions">
                  <Tooltip title={t.permEditType}>
                    <Button type="text" size="small" icon={<EditOutlined />} aria-label={t.permEditType} onClick={stop(() => setTarget({ record: type }))} />
                  </Tooltip>
                  <Tooltip title={t.delete}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t.delete} onClick={stop(() => confirmRemove(type))} />
                  </Tooltip>
                </span>
              )}
            </li>
          ))}
        </ul>
      </Spin>
      <TypeFormModal target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
