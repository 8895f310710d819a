import { Alert, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { passwordUpdateSchema } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { useSignOut } from '../../shared/session.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { changePassword, PASSWORD_MIN_LENGTH, type PasswordForm as Values } from './api.ts';

export interface PasswordFormProps {
  /** The notice above the fields; by default the rule and that the user signs in again. */
  hint?: string;
  submitText?: string;
  /** After '修改密码成功'; by default the user is signed out and signs in again with the new password. */
  onChanged?: () => Promise<void> | void;
}

/**
 * Personal settings → 修改密码, and the 修改初始密码 page. The new password needs 6 characters
 * and may not be the old one (the server checks the digests too).
 */
export function PasswordForm({ hint = t.passwordHint, submitText = t.savePassword, onChanged }: PasswordFormProps = {}) {
  const [form] = Form.useForm<Values>();
  const signOut = useSignOut();
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: async () => {
      form.resetFields();
      if (onChanged) await onChanged();
      else await signOut({ message: msg.passwordUpdated });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  return (
    <Form<Values> form={form} layout="vertical" className="password-form" onFinish={(v) => mutation.mutate(v)}>
      <Alert type="info" showIcon title={hint} className="password-hint" />
      <Form.Item label={t.oldPassword} name="oldPassword" rules={zodRules(passwordUpdateSchema, 'oldPassword', { only: ['required'] })}>
        <Input.Password placeholder={t.oldPasswordRequired} autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        label={t.newPassword}
        name="newPassword"
        rules={[
          ...zodRules(passwordUpdateSchema, 'newPassword', { only: ['required'] }),
          { min: PASSWORD_MIN_LENGTH, message: msg.passwordTooShort },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value !== getFieldValue('oldPassword') ? Promise.resolve() : Promise.reject(new Error(msg.passwordSameAsOld)),
          }),
        ]}
      >
        <Input.Password placeholder={t.newPasswordRequired} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t.confirmPassword}
        name="confirmPassword"
        dependencies={['newPassword']}
        rules={[
          ...zodRules(passwordUpdateSchema, 'confirmPassword', { only: ['required'] }),
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
          {submitText}
        </Button>
      </Form.Item>
    </Form>
  );
}
