import { useMemo, useState } from 'react';
import { Alert, Button, Col, Form, Input, Modal, Row, Select, Space, TreeSelect } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PERM_TYPE_NAME, permGroupSaveSchema, type PermGroup, type PermGroupSave, type PermMember, type PermType, type User } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { fetchDepartments, fetchRoles, orgKeys } from '../org/api.ts';
import { indexTree, toSelectTree } from '../org/tree.ts';
import { fetchAllUsers, permKeys, savePermGroup, savePermType } from './api.ts';
import { sortTypes } from './PermTypeMenu.tsx';
import { pt } from './messages.ts';

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

/** The category a new group starts in: the one the list was showing, else the seeded 默认分类 when it is still there. */
export function initialTypeId(types: readonly PermType[], chosen?: number): number | undefined {
  if (chosen !== undefined) return chosen;
  return types.find((ty) => ty.typeName === DEFAULT_PERM_TYPE_NAME)?.id;
}

/** The required fields, by form name, with their labels: the dialog's summary names the missing ones. */
const REQUIRED: { name: keyof GroupValues; label: string }[] = [
  { name: 'permName', label: t.permGroupName },
  { name: 'typeId', label: t.permGroupType },
];

/**
 * 新建分类 in place: a name and 添加 under the category select. The new category is saved with
 * the category API and handed to `onCreated`, which selects it.
 */
function NewTypeInline({ onCreated }: { onCreated: (type: PermType) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (typeName: string) => savePermType({ typeName }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.saved);
      setName(null);
      onCreated(res.data);
      await queryClient.invalidateQueries({ queryKey: permKeys.types });
    },
  });
  if (name === null) {
    return (
      <Button type="link" size="small" icon={<PlusOutlined />} className="perm-new-type" onClick={() => setName('')}>
        {pt.newType}
      </Button>
    );
  }
  const typeName = name.trim();
  const submit = () => {
    if (typeName && !create.isPending) create.mutate(typeName);
  };
  return (
    <Space.Compact className="perm-new-type" style={{ width: '100%', marginTop: 4 }}>
      <Input
        autoFocus
        aria-label={pt.newTypePlaceholder}
        placeholder={pt.newTypePlaceholder}
        maxLength={50}
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          // Enter adds the category; it must not submit the group form around it.
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          }
          if (e.key === 'Escape') e.stopPropagation();
        }}
      />
      <Button type="primary" disabled={!typeName} loading={create.isPending} onClick={submit}>
        {pt.newTypeOk}
      </Button>
      <Button onClick={() => setName(null)}>{pt.newTypeCancel}</Button>
    </Space.Compact>
  );
}

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
  // Categories created in place, listed until the types query brings them back.
  const [createdTypes, setCreatedTypes] = useState<PermType[]>([]);
  const typeOptions = useMemo(() => {
    const known = new Set(types.map((ty) => ty.id));
    return sortTypes([...types, ...createdTypes.filter((ty) => !known.has(ty.id))]).map((ty) => ({ value: ty.id, label: ty.typeName }));
  }, [types, createdTypes]);
  const [missing, setMissing] = useState<string[]>([]);
  const updateMissing = () =>
    setMissing(
      REQUIRED.filter((f) => form.getFieldError(f.name).length > 0).map((f) =>
        f.name === 'typeId' && typeOptions.length === 0 ? `${f.label}（${pt.noTypes}）` : f.label,
      ),
    );

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
    : { typeId: initialTypeId(types, target?.typeId), dpIds: [], roleIds: [], userIds: [], blackUserIds: [] };

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
        <Form<GroupValues>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={initialValues}
          onFinish={(v) => save.mutate(v)}
          onFinishFailed={updateMissing}
          onFieldsChange={updateMissing}
        >
          {dom}
        </Form>
      )}
    >
      {missing.length > 0 && (
        <Alert type="error" showIcon role="alert" data-testid="perm-group-missing" style={{ marginBottom: 16 }} title={pt.missing(missing)} />
      )}
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label={t.permGroupName} name="permName" rules={zodRules(permGroupSaveSchema, 'permName')}>
            <Input placeholder={t.permGroupNamePlaceholder} maxLength={50} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label={t.permGroupType}
            name="typeId"
            rules={zodRules(permGroupSaveSchema, 'typeId')}
            extra={
              <NewTypeInline
                onCreated={(type) => {
                  setCreatedTypes((list) => [...list, type]);
                  form.setFieldValue('typeId', type.id);
                  void form.validateFields(['typeId']).catch(() => undefined);
                }}
              />
            }
          >
            <Select placeholder={t.permGroupTypePlaceholder} options={typeOptions} notFoundContent={pt.noTypes} />
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
