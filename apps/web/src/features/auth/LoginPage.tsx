import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zhCN } from '@shutu/contracts/messages';
import { getToken, setToken } from '../../shared/api.ts';
import { t } from '../../shared/messages.ts';
import { errorText, takeRecentSuccess } from '../../shared/notify.ts';
import { login, useLoginSystemName, type LoginForm } from './api.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { LoginField } from './LoginField.tsx';
import { changePasswordPath, safeRedirect } from './paths.ts';

export { safeRedirect };

/** The longest account the server takes (loginRequestSchema: requiredText(…, 64)); the input stops there. */
const ACCOUNT_MAX = 64;

type Missing = Partial<Record<keyof LoginForm, string>>;

/** The messages of loginRequestSchema's required checks, without zod on the page. */
function missingFields(form: LoginForm): Missing {
  const missing: Missing = {};
  if (!form.account.trim()) missing.account = zhCN.accountRequired;
  if (!form.password) missing.password = zhCN.passwordRequired;
  return missing;
}

/**
 * 登录. Plain elements and CSS, not antd: this page is the first paint of most visits and its
 * script is the app's entry, which should be small (issue 26, docs/web-performance.md).
 */
export function LoginPage() {
  const systemName = useLoginSystemName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<LoginForm>({ account: '', password: '' });
  const [missing, setMissing] = useState<Missing>({});
  const [error, setError] = useState<string | null>(null);
  const redirect = safeRedirect(params.get('redirect'));
  // The message of the sign-out that led here (修改密码成功, 已退出登录): antd's toast left with the page.
  const [notice, setNotice] = useState(takeRecentSuccess);

  useEffect(() => {
    document.title = systemName;
  }, [systemName]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 3000);
    return () => clearTimeout(timer);
  }, [notice]);

  const mutation = useMutation({
    mutationFn: login,
    meta: { silent: true },
    onSuccess: async (res) => {
      setToken(res.token);
      queryClient.removeQueries({ queryKey: ['auth'] });
      // The initial password: 修改初始密码 first, then the page asked for.
      await navigate(res.mustChangePassword ? changePasswordPath(redirect) : redirect, { replace: true });
    },
    onError: (e) => setError(errorText(e)),
  });

  if (getToken() && !mutation.isPending && !mutation.isSuccess) return <Navigate to={redirect} replace />;

  const change = (field: keyof LoginForm, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setMissing((m) => ({ ...m, [field]: undefined }));
    setError(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = missingFields(form);
    setMissing(found);
    setError(null);
    if (!found.account && !found.password && !mutation.isPending) mutation.mutate(form);
  };

  return (
    <AuthLayout systemName={systemName}>
      {notice && (
        <div className="login-notice" role="status">
          <span className="login-notice-icon" aria-hidden="true">
            ✓
          </span>
          {notice}
        </div>
      )}
      <div className="login-card">
        <h1 className="login-title" data-testid="login-title">
          {systemName}
        </h1>
        <div className="login-subtitle">
          {t.loginWelcome} · {t.loginTitle}
        </div>
        <form className="login-form" noValidate onSubmit={submit}>
          <LoginField
            icon="user"
            value={form.account}
            onChange={(v) => change('account', v)}
            placeholder={t.loginAccount}
            autoComplete="username"
            maxLength={ACCOUNT_MAX}
            error={missing.account}
            autoFocus
          />
          <LoginField
            icon="lock"
            type="password"
            value={form.password}
            onChange={(v) => change('password', v)}
            placeholder={t.loginPassword}
            autoComplete="current-password"
            error={missing.password}
          />
          {error && (
            <div className="login-error" role="alert" data-testid="login-error">
              <span className="login-error-icon" aria-hidden="true">
                !
              </span>
              {error}
            </div>
          )}
          <button type="submit" className="login-submit" disabled={mutation.isPending} aria-busy={mutation.isPending}>
            {mutation.isPending && <span className="login-submit-spin" aria-hidden="true" />}
            {t.loginButton}
          </button>
        </form>
      </div>
    </AuthLayout>
  );
}
