import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loginRequestSchema } from '@shutu/contracts';
import { getToken, setToken } from '../../shared/api.ts';
import { t } from '../../shared/messages.ts';
import { errorText } from '../../shared/notify.ts';
import { useSystemName } from '../system/api.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { login, type LoginForm } from './api.ts';
import { AuthLayout } from './AuthLayout.tsx';

/** Only same-site paths are followed after login; anything else goes home. */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return '/';
  return value;
}

export function LoginPage() {
  const systemName = useSystemName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const redirect = safeRedirect(params.get('redirect'));

  useEffect(() => {
    document.title = systemName;
  }, [systemName]);

  const mutation = useMutation({
    mutationFn: login,
    meta: { silent: true },
    onSuccess: async (res) => {
      setToken(res.token);
      queryClient.removeQueries({ queryKey: ['auth'] });
      // The initial password: 修改初始密码 first, then the page asked for.
      await navigate(res.mustChangePassword ? `/change-password${redirect === '/' ? '' : `?redirect=${encodeURIComponent(redirect)}`}` : redirect, {
        replace: true,
      });
    },
    onError: (e) => setError(errorText(e)),
  });

  if (getToken() && !mutation.isPending && !mutation.isSuccess) return <Navigate to={redirect} replace />;

  return (
    <AuthLayout systemName={systemName}>
      <div className="login-card">
        <h1 className="login-title" data-testid="login-title">
          {systemName}
        </h1>
        <div className="login-subtitle">
          {t.loginWelcome} · {t.loginTitle}
        </div>
        <Form<LoginForm>
          layout="vertical"
          size="large"
          requiredMark={false}
          onValuesChange={() => setError(null)}
          onFinish={(values) => {
            setError(null);
            mutation.mutate(values);
          }}
        >
          <Form.Item name="account" rules={zodRules(loginRequestSchema, 'account')}>
            <Input prefix={<UserOutlined className="login-icon" />} placeholder={t.loginAccount} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" rules={zodRules(loginRequestSchema, 'password', { only: ['required'] })}>
            <Input.Password prefix={<LockOutlined className="login-icon" />} placeholder={t.loginPassword} autoComplete="current-password" />
          </Form.Item>
          {error && <Alert className="login-error" type="error" showIcon title={error} data-testid="login-error" />}
          <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
            {t.loginButton}
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
