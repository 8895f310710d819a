import { Checkbox, Form, Input, InputNumber, Modal, TreeSelect } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { roleSaveSchema, type Permission, type RoleNode, type RoleSave } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { createRole, fetchPermissions, orgKeys, updateRole } from './api.ts';
import { toSelectTree } from './tree.ts';

export interface RoleTarget {
  record?: RoleNode;
  parentId?: number;
}

type Values = { parentId: number; roleName: string; sort: number; permissions: string[] };

/** Permissions grouped by their `group`, in the order the server lists them. */
export function groupPermissions(list: Permission[]): { group: string; items: Permission[] }[] {
  const groups = new Map<string, Permission[]>();
  for (const p of list) groups.set(p.group, [...(groups.get(p.group) ?? []), p]);
  return [...groups].map(([group, items]) => ({ group, items }));
}

export function RoleFormModal({ target, tree, onClose }: { target: RoleTarget | null; tree: RoleNode[]; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const permissions = useQuery({ queryKey: orgKeys.permissions, queryFn: fetchPermissions, staleTime: Infinity });

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body: RoleSave = { parentId: v.parentId ?? 0, roleName: v.roleName.trim(), sort: v.sort ?? 0, permissions: v.permissions ?? [] };
      return record ? updateRole(record.id, body) : createRole(body);
    },
    onSuccess: async () => {
      notifySuccess(msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: orgKeys.roles });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  const parentOptions = [{ value: 0, key: 0, title: t.topLevel }, ...toSelectTree(tree, (r) => r.roleName, record?.id)];

  return (
    <Modal
      open={target !== null}
      title={record ? t.editRole : t.addRole}
      width={600}
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
          initialValues={
            record
              ? { parentId: record.parentId, roleName: record.roleName, sort: record.sort, permissions: record.permissions }
              : { parentId: target?.parentId ?? 0, sort: 0, permissions: [] }
          }
          onFinish={(v) => save.mutate(v)}
        >
          {dom}
        </Form>
      )}
    >
      <Form.Item label={t.parentRole} name="parentId">
        <TreeSelect treeData={parentOptions} treeDefaultExpandAll showSearch={{ treeNodeFilterProp: 'title' }} />
      </Form.Item>
      <Form.Item label={t.roleName} name="roleName" rules={zodRules(roleSaveSchema, 'roleName')}>
        <Input placeholder={msg.roleNameRequired} maxLength={50} />
      </Form.Item>
      <Form.Item label={t.sort} name="sort">
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
      <Form.Item label={t.permissions} name="permissions">
        <Checkbox.Group className="perm-groups">
          {groupPermissions(permissions.data ?? []).map(({ group, items }) => (
            <div key={group} className="perm-group">
              <div className="perm-group-title">{group}</div>
              <div className="perm-group-items">
                {items.map((p) => (
                  <Checkbox key={p.code} value={p.code}>
                    {p.name}
                  </Checkbox>
                ))}
              </div>
            </div>
          ))}
        </Checkbox.Group>
      </Form.Item>
    </Modal>
  );
}
