import { Form, Input, InputNumber, Modal, TreeSelect } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { departmentSaveSchema, type DepartmentNode, type DepartmentSave } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { createDepartment, orgKeys, updateDepartment } from './api.ts';
import { toSelectTree } from './tree.ts';

/** A new department under `parentId` (0: top level), or an existing `record`. */
export interface DeptTarget {
  record?: DepartmentNode;
  parentId?: number;
}

type Values = { parentId: number; deptName: string; sort: number };

export function DeptFormModal({ target, tree, onClose }: { target: DeptTarget | null; tree: DepartmentNode[]; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const record = target?.record;

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body: DepartmentSave = { parentId: v.parentId ?? 0, deptName: v.deptName.trim(), sort: v.sort ?? 0 };
      return record ? updateDepartment(record.id, body) : createDepartment(body);
    },
    onSuccess: async () => {
      notifySuccess(msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: orgKeys.departments });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  const parentOptions = [{ value: 0, key: 0, title: t.topLevel }, ...toSelectTree(tree, (d) => d.deptName, record?.id)];

  return (
    <Modal
      open={target !== null}
      title={record ? t.editDept : t.addDept}
      width={520}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<Values>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={record ? { parentId: record.parentId, deptName: record.deptName, sort: record.sort } : { parentId: target?.parentId ?? 0, sort: 0 }}
          onFinish={(v) => save.mutate(v)}
        >
          {dom}
        </Form>
      )}
    >
      <Form.Item label={t.parentDept} name="parentId">
        <TreeSelect treeData={parentOptions} treeDefaultExpandAll showSearch={{ treeNodeFilterProp: 'title' }} placeholder={t.deptPlaceholder} />
      </Form.Item>
      <Form.Item label={t.deptName} name="deptName" rules={zodRules(departmentSaveSchema, 'deptName')}>
        <Input placeholder={msg.deptNameRequired} maxLength={50} />
      </Form.Item>
      <Form.Item label={t.sort} name="sort">
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    </Modal>
  );
}
