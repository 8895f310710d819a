import { useEffect } from 'react';
import { Avatar, Button, Form, Input } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileUpdateSchema, type ProfileUpdate, type UserInfo } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { authKeys } from '../../shared/session.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { saveProfile } from './api.ts';

type Values = { avatar?: string; name: string; realName?: string; phone?: string; email?: string };

const blankToNull = (s: string | undefined) => (s && s.trim() ? s.trim() : null);

export function ProfileInfoForm({ user }: { user: UserInfo }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const avatar = Form.useWatch('avatar', form);

  useEffect(() => {
    form.setFieldsValue({
      avatar: user.avatar ?? '',
      name: user.name,
      realName: user.realName ?? '',
      phone: user.phone ?? '',
      email: user.email ?? '',
    });
  }, [form, user]);

  const mutation = useMutation({
    mutationFn: (v: Values) => {
      const body: ProfileUpdate = {
        avatar: blankToNull(v.avatar),
        name: v.name.trim(),
        realName: blankToNull(v.realName),
        phone: blankToNull(v.phone),
        email: blankToNull(v.email),
      };
      return saveProfile(body);
    },
    onSuccess: async () => {
      notifySuccess(msg.infoUpdated);
      await queryClient.invalidateQueries({ queryKey: authKeys.info });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  return (
    <div className="profile-info">
      <div className="profile-avatar">
        <Avatar size={96} src={avatar?.trim() || undefined} icon={<UserOutlined />} data-testid="avatar-preview" />
        <div className="profile-avatar-name">{user.name}</div>
        <div className="profile-avatar-account">
          {t.account}：{user.account}
        </div>
      </div>
      <Form<Values> form={form} layout="vertical" className="profile-form" onFinish={(v) => mutation.mutate(v)}>
        <Form.Item label={t.avatarUrl} name="avatar" rules={[{ pattern: /^(https?:\/\/|\/|data:image\/)\S*$/, message: t.avatarInvalid }]}>
          <Input placeholder={t.avatarPlaceholder} allowClear />
        </Form.Item>
        <Form.Item label={t.name} name="name" rules={zodRules(profileUpdateSchema, 'name')}>
          <Input placeholder={t.namePlaceholder} maxLength={50} />
        </Form.Item>
        <Form.Item label={t.realName} name="realName">
          <Input placeholder={t.realNamePlaceholder} maxLength={50} />
        </Form.Item>
        <Form.Item label={t.phone} name="phone" rules={[{ pattern: /^\+?[0-9-]{5,20}$/, message: msg.phoneInvalid }]}>
          <Input placeholder={t.phonePlaceholder} />
        </Form.Item>
        <Form.Item label={t.email} name="email" rules={[{ type: 'email', message: msg.emailInvalid }]}>
          <Input placeholder={t.emailPlaceholder} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t.saveInfo}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
