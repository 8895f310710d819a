import { Form, Input, Modal } from 'antd';
import { useMutation } from '@tanstack/react-query';
import type { User } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { PASSWORD_MIN_LENGTH } from '../profile/api.ts';
import { resetUserPassword } from './api.ts';

type Values = { password: string; confirm: string };

export function ResetPasswordModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const reset = useMutation({
    mutationFn: (v: Values) => resetUserPassword(user!.id, v.password),
    onSuccess: () => {
      notifySuccess(msg.passwordReset);
      onClose();
    },
  });

  return (
    <Modal
      open={user !== null}
      title={user ? t.resetPasswordOf(user.name) : ''}
      width={460}
      destroyOnHidden
      okText={t.confirm}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: reset.isPending }}
      modalRender={(dom) => (
        <Form<Values> form={form} layout="vertical" clearOnDestroy onFinish={(v) => reset.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Form.Item
        label={t.newPassword}
        name="password"
        rules={[
          { required: true, message: t.newPasswordRequired },
          { min: PASSWORD_MIN_LENGTH, message: msg.passwordTooShort },
        ]}
      >
        <Input.Password placeholder={t.initialPasswordPlaceholder} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t.confirmPassword}
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true, message: t.confirmPasswordRequired },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(msg.passwordMismatch)),
          }),
        ]}
      >
        <Input.Password placeholder={t.confirmPasswordRequired} autoComplete="new-password" />
      </Form.Item>
    </Modal>
  );
}
