import { Alert, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { msg, t } from '../../app/messages.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { useSignOut } from '../auth/hooks.ts';
import { changePassword, PASSWORD_MIN_LENGTH, type PasswordForm as Values } from './api.ts';

/**
 * Changing the password ends the session: after '修改密码成功' the user is signed out and
 * signs in again with the new password.
 */
export function PasswordForm() {
  const [form] = Form.useForm<Values>();
  const signOut = useSignOut();
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: async () => {
      form.resetFields();
      await signOut({ message: msg.passwordUpdated });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  return (
    <Form<Values> form={form} layout="vertical" className="password-form" onFinish={(v) => mutation.mutate(v)}>
      <Alert type="info" showIcon title={t.passwordHint} className="password-hint" />
      <Form.Item label={t.oldPassword} name="oldPassword" rules={[{ required: true, message: t.oldPasswordRequired }]}>
        <Input.Password placeholder={t.oldPasswordRequired} autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        label={t.newPassword}
        name="newPassword"
        rules={[
          { required: true, message: t.newPasswordRequired },
          { min: PASSWORD_MIN_LENGTH, message: msg.passwordTooShort },
        ]}
      >
        <Input.Password placeholder={t.newPasswordRequired} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t.confirmPassword}
        name="confirmPassword"
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t.confirmPasswordRequired },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(msg.passwordMismatch)),
          }),
        ]}
      >
        <Input.Password placeholder={t.confirmPasswordRequired} autoComplete="new-password" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t.savePassword}
        </Button>
      </Form.Item>
    </Form>
  );
}
