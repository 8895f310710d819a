import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Button, Result, Spin } from 'antd';
import { getToken, loginPath } from '../shared/api.ts';
import { t } from '../shared/messages.ts';
import { homePath } from './pages.ts';
import { useUserInfo } from '../shared/session.ts';
import { CHANGE_PASSWORD_PATH, changePasswordPath } from '../features/auth/paths.ts';
import { canAccess, type Access } from '../shared/access.ts';
import { useTimeZoneReady } from '../features/system/api.ts';
import { FrameRedirect } from '../features/app/FrameRedirect.tsx';

export function FullPageSpin() {
  return (
    <div className="full-page-center">
      <Spin size="large" description={t.loading} />
    </div>
  );
}

/**
 * Everything but the login page needs a session; without one, go to login and come back afterwards.
 * A user who still has the initial password sees only 修改初始密码 until it is changed.
 */
export function RequireAuth() {
  const location = useLocation();
  const token = getToken();
  const info = useUserInfo();
  // Pages show times on the installation's clock: learn it before the first one renders.
  const timeZoneReady = useTimeZoneReady();
  if (!token) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  if (info.isPending || !timeZoneReady) return <FullPageSpin />;
  if (info.isError) {
    return (
      <div className="full-page-center">
        <Result
          status="error"
          title={t.errorTitle}
          subTitle={info.error.message || t.errorSub}
          extra={
            <Button type="primary" onClick={() => void info.refetch()}>
              {t.refresh}
            </Button>
          }
        />
      </div>
    );
  }
  if (info.data.mustChangePassword && location.pathname !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={changePasswordPath(`${location.pathname}${location.search}`)} replace />;
  }
  return <Outlet />;
}

function BackHome() {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => void navigate('/')}>
      {t.backHome}
    </Button>
  );
}

export function ForbiddenResult() {
  return <Result status="403" title={t.forbiddenTitle} subTitle={t.forbiddenSub} extra={<BackHome />} />;
}

export function NotFoundResult() {
  return <Result status="404" title={t.notFoundTitle} subTitle={t.notFoundSub} extra={<BackHome />} />;
}

/** A page opened without the right shows a 403 result instead of its content. */
export function Guarded({ access, children }: { access: Access; children: ReactNode }) {
  const { data } = useUserInfo();
  if (!canAccess(data, access)) return <ForbiddenResult />;
  return <>{children}</>;
}

export function HomeRedirect() {
  const { data } = useUserInfo();
  // The full-screen frame decides first (bigdataId, the default address; issue 24).
  return <FrameRedirect fallback={homePath(data)} />;
}
