import { Col, Form, Input, InputNumber, Modal, Row, Switch, TreeSelect } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bigdataIdOf, userCreateSchema, withBigdataId, type DepartmentNode, type RoleNode, type User, type UserUpdate } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { PASSWORD_MIN_LENGTH } from '../profile/api.ts';
import { createUser, orgKeys, updateUser } from './api.ts';
import { toSelectTree } from './tree.ts';

export interface UserTarget {
  record?: User;
  deptId?: number;
}

export interface UserValues {
  account: string;
  password: string;
  name: string;
  realName?: string;
  phone?: string;
  email?: string;
  deptId?: number | null;
  roleIds?: number[];
  isAdministrator?: boolean;
  userExtJson?: string;
  /** 全屏大屏: written into userExtJson.bigdataId (issue 24). */
  bigdataId?: number | null;
}

/** The full-screen dashboard of the user (spec 3 §3 userExtJson.bigdataId; docs/apps.md). */
const BIGDATA_LABEL = '全屏大屏ID';
const BIGDATA_HINT = '填写后该用户登录即全屏打开此大屏（保存到扩展信息的 bigdataId）';

const blank = (s: string | undefined | null) => (s && s.trim() ? s.trim() : null);

/** The fields both create and update send; the avatar is the user's own business (profile page). */
export function userBody(v: UserValues, record?: User): UserUpdate {
  return {
    name: v.name.trim(),
    realName: blank(v.realName),
    avatar: record?.avatar ?? null,
    phone: blank(v.phone),
    email: blank(v.email),
    deptId: v.deptId ?? null,
    roleIds: v.roleIds ?? [],
    isAdministrator: v.isAdministrator ?? false,
    userExtJson: v.bigdataId === undefined ? blank(v.userExtJson) : withBigdataId(blank(v.userExtJson), v.bigdataId ?? null),
  };
}

function validJson(_: unknown, value: string | undefined) {
  if (!value || !value.trim()) return Promise.resolve();
  try {
    JSON.parse(value);
    return Promise.resolve();
  } catch {
    return Promise.reject(new Error(t.userExtJsonInvalid));
  }
}

interface Props {
  target: UserTarget | null;
  depts: DepartmentNode[];
  roles: RoleNode[];
  onClose: () => void;
}

export function UserFormModal({ target, depts, roles, onClose }: Props) {
  const [form] = Form.useForm<UserValues>();
  const queryClient = useQueryClient();
  const record = target?.record;

  const save = useMutation({
    mutationFn: (v: UserValues) =>
      record ? updateUser(record.id, userBody(v, record)) : createUser({ account: v.account.trim(), password: v.password, ...userBody(v) }),
    onSuccess: async () => {
      notifySuccess(msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: orgKeys.usersAll });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  const initialValues: Partial<UserValues> = record
    ? {
        account: record.account,
        name: record.name,
        realName: record.realName ?? '',
        phone: record.phone ?? '',
        email: record.email ?? '',
        deptId: record.deptId,
        roleIds: record.roleIds,
        isAdministrator: record.isAdministrator,
        userExtJson: record.userExtJson ?? '',
        bigdataId: bigdataIdOf(record.userExtJson),
      }
    : { deptId: target?.deptId ?? null, roleIds: [], isAdministrator: false };

  return (
    <Modal
      open={target !== null}
      title={record ? t.editUser : t.addUser}
      width={720}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<UserValues> form={form} layout="vertical" clearOnDestroy initialValues={initialValues} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label={t.account}
            name="account"
            // The pattern bounds the length itself (2-32), and says so in its own words.
            rules={zodRules(userCreateSchema, 'account', { only: ['required', 'pattern'] })}
          >
            <Input placeholder={msg.accountRequired} disabled={Boolean(record)} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          {record ? (
            <Form.Item label={t.administrator} name="isAdministrator" valuePropName="checked">
              <Switch />
            </Form.Item>
          ) : (
            <Form.Item
              label={t.initialPassword}
              name="password"
              rules={[
                // The contract checks the hash; the length is the typed password's.
                ...zodRules(userCreateSchema, 'password', { only: ['required'] }),
                { min: PASSWORD_MIN_LENGTH, message: msg.passwordTooShort },
              ]}
            >
              <Input.Password placeholder={t.initialPasswordPlaceholder} autoComplete="new-password" />
            </Form.Item>
          )}
        </Col>
        <Col span={12}>
          <Form.Item label={t.name} name="name" rules={zodRules(userCreateSchema, 'name')}>
            <Input placeholder={msg.nameRequired} maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.realName} name="realName">
            <Input placeholder={t.realNamePlaceholder} maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.phone} name="phone" rules={[{ pattern: /^\+?[0-9-]{5,20}$/, message: msg.phoneInvalid }]}>
            <Input placeholder={t.phonePlaceholder} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.email} name="email" rules={[{ type: 'email', message: msg.emailInvalid }]}>
            <Input placeholder={t.emailPlaceholder} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.dept} name="deptId">
            <TreeSelect
              treeData={toSelectTree(depts, (d) => d.deptName)}
              treeDefaultExpandAll
              allowClear
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t.deptPlaceholder}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.roles} name="roleIds">
            <TreeSelect
              treeData={toSelectTree(roles, (r) => r.roleName)}
              treeDefaultExpandAll
              multiple
              allowClear
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t.rolesPlaceholder}
            />
          </Form.Item>
        </Col>
        {!record && (
          <Col span={24}>
            <Form.Item label={t.administrator} name="isAdministrator" valuePropName="checked" extra={t.administratorHint}>
              <Switch />
            </Form.Item>
          </Col>
        )}
        <Col span={24}>
          <Form.Item label={BIGDATA_LABEL} name="bigdataId" extra={BIGDATA_HINT}>
            <InputNumber min={1} precision={0} style={{ width: 200 }} data-testid="user-bigdata-id" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t.userExtJson} name="userExtJson" rules={[{ validator: validJson }]}>
            <Input.TextArea placeholder={t.userExtJsonPlaceholder} autoSize={{ minRows: 2, maxRows: 6 }} className="mono" />
          </Form.Item>
        </Col>
      </Row>
    </Modal>
  );
}
