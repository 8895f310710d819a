import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useSystemName } from '../system/api.ts';
import { PasswordForm } from '../profile/PasswordForm.tsx';
import { authKeys, useSignOut, useUserInfo } from '../../shared/session.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { safeRedirect } from './paths.ts';

export { CHANGE_PASSWORD_PATH, changePasswordPath } from './paths.ts';

/**
 * 修改初始密码: the first sign-in with the built-in administrator password (mustChangePassword)
 * lands here before anything else; the server refuses every other call meanwhile. After the
 * change the session goes on (the server keeps it) and the page asked for opens.
 */
export default function ChangeInitialPasswordPage() {
  const systemName = useSystemName();
  const info = useUserInfo();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const redirect = safeRedirect(params.get('redirect'));

  useEffect(() => {
    document.title = `${t.initialPasswordTitle} - ${systemName}`;
  }, [systemName]);

  if (info.data && !info.data.mustChangePassword) return <Navigate to={redirect} replace />;

  return (
    <AuthLayout systemName={systemName}>
      <div className="login-card change-password-card" data-testid="change-initial-password">
        <div className="change-password-icon" aria-hidden="true">
          <SafetyCertificateOutlined />
        </div>
        <h1 className="login-title">{t.initialPasswordTitle}</h1>
        <div className="login-subtitle">{info.data ? t.initialPasswordSubtitle(info.data.account) : '\u00a0'}</div>
        <PasswordForm
          hint={t.initialPasswordHint}
          submitText={t.initialPasswordSubmit}
          onChanged={async () => {
            notifySuccess(t.initialPasswordDone);
            await queryClient.invalidateQueries({ queryKey: authKeys.info });
            await navigate(redirect, { replace: true });
          }}
        />
        <div className="change-password-foot">
          <Button type="link" onClick={() => void signOut()}>
            {t.initialPasswordSignOut}
          </Button>
        </div>
      </div>
    </AuthLayout>
  );
}
