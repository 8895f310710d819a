import { useMemo } from 'react';
import { Col, Form, Input, Modal, Row, Select, TreeSelect } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { permGroupSaveSchema, type PermGroup, type PermGroupSave, type PermMember, type PermType, type User } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { fetchDepartments, fetchRoles, orgKeys } from '../org/api.ts';
import { indexTree, toSelectTree } from '../org/tree.ts';
import { fetchAllUsers, permKeys, savePermGroup } from './api.ts';
import { sortTypes } from './PermTypeMenu.tsx';

/** What the dialog edits: a new group (optionally of a type) or a saved one. */
export interface GroupTarget {
  record?: PermGroup;
  typeId?: number;
}

export interface GroupValues {
  permName?: string;
  typeId?: number;
  dpIds?: number[];
  roleIds?: number[];
  userIds?: number[];
  blackUserIds?: number[];
}

/** 张三（zhangsan）: the real name when there is one, and the account. */
export const userLabel = (u: Pick<User, 'name' | 'realName' | 'account'>) => `${u.realName || u.name}（${u.account}）`;

/**
 * The save body: members as `{id, name}` with the names the dialog knows (the server
 * refreshes them); ids it cannot name keep the name they were saved with.
 */
export function groupBody(
  v: GroupValues,
  names: { depts: Map<number, string>; roles: Map<number, string>; users: Map<number, string> },
  record?: PermGroup,
): PermGroupSave {
  const saved = new Map<number, string>();
  if (record) for (const list of Object.values(record.permJson)) for (const m of list) saved.set(m.id, m.name);
  const members = (ids: number[] | undefined, known: Map<number, string>): PermMember[] =>
    (ids ?? []).map((id) => ({ id, name: known.get(id) ?? saved.get(id) ?? '' }));
  return {
    ...(record ? { id: record.id } : {}),
    permName: (v.permName ?? '').trim(),
    typeId: v.typeId as number,
    permJson: {
      dpList: members(v.dpIds, names.depts),
      roleList: members(v.roleIds, names.roles),
      userList: members(v.userIds, names.users),
      blackUserList: members(v.blackUserIds, names.users),
    },
  };
}

const ids = (list: PermMember[]) => list.map((m) => m.id);

interface Props {
  target: GroupTarget | null;
  types: PermType[];
  onClose: () => void;
}

export function GroupFormModal({ target, types, onClose }: Props) {
  const [form] = Form.useForm<GroupValues>();
  const queryClient = useQueryClient();
  const open = target !== null;
  const record = target?.record;
  const depts = useQuery({ queryKey: orgKeys.departments, queryFn: fetchDepartments, enabled: open });
  const roles = useQuery({ queryKey: orgKeys.roles, queryFn: fetchRoles, enabled: open });
  const users = useQuery({ queryKey: permKeys.allUsers, queryFn: fetchAllUsers, enabled: open, staleTime: 0 });

  const deptNames = useMemo(() => new Map([...indexTree(depts.data ?? [])].map(([id, d]) => [id, d.deptName])), [depts.data]);
  const roleNames = useMemo(() => new Map([...indexTree(roles.data ?? [])].map(([id, r]) => [id, r.roleName])), [roles.data]);
  const userOptions = useMemo(() => (users.data ?? []).map((u) => ({ value: u.id, label: userLabel(u) })), [users.data]);
  const userNames = useMemo(() => new Map((users.data ?? []).map((u) => [u.id, u.realName || u.name])), [users.data]);

  const save = useMutation({
    mutationFn: (v: GroupValues) => savePermGroup(groupBody(v, { depts: deptNames, roles: roleNames, users: userNames }, record)),
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: permKeys.all });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  const initialValues: GroupValues = record
    ? {
        permName: record.permName,
        typeId: record.typeId,
        dpIds: ids(record.permJson.dpList),
        roleIds: ids(record.permJson.roleList),
        userIds: ids(record.permJson.userList),
        blackUserIds: ids(record.permJson.blackUserList),
      }
    : { typeId: target?.typeId, dpIds: [], roleIds: [], userIds: [], blackUserIds: [] };

  const userSelect = (placeholder: string) => (
    <Select
      mode="multiple"
      allowClear
      options={userOptions}
      loading={users.isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={placeholder}
      maxTagCount="responsive"
    />
  );

  return (
    <Modal
      open={open}
      title={record ? t.permEditGroup : t.permAddGroup}
      width={720}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<GroupValues> form={form} layout="vertical" clearOnDestroy initialValues={initialValues} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label={t.permGroupName} name="permName" rules={zodRules(permGroupSaveSchema, 'permName')}>
            <Input placeholder={t.permGroupNamePlaceholder} maxLength={50} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.permGroupType} name="typeId" rules={zodRules(permGroupSaveSchema, 'typeId')}>
            <Select placeholder={t.permGroupTypePlaceholder} options={sortTypes(types).map((ty) => ({ value: ty.id, label: ty.typeName }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.permDepts} name="dpIds" extra={t.permDeptsHelp}>
            <TreeSelect
              treeData={toSelectTree(depts.data ?? [], (d) => d.deptName)}
              loading={depts.isFetching}
              multiple
              allowClear
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t.permDeptsPlaceholder}
              maxTagCount="responsive"
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.permRoles} name="roleIds" extra={t.permRolesHelp}>
            <TreeSelect
              treeData={toSelectTree(roles.data ?? [], (r) => r.roleName)}
              loading={roles.isFetching}
              multiple
              allowClear
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t.permRolesPlaceholder}
              maxTagCount="responsive"
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.permUsers} name="userIds">
            {userSelect(t.permUsersPlaceholder)}
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.permBlackUsers} name="blackUserIds" extra={t.permBlackUsersHelp}>
            {userSelect(t.permBlackUsersPlaceholder)}
          </Form.Item>
        </Col>
      </Row>
    </Modal>
  );
}
