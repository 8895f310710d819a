import { Outlet, useRouteError } from 'react-router';
import { Button, Result, Spin } from 'antd';
import { t } from '../shared/messages.ts';
import { AntdProviders } from './providers.tsx';

/**
 * The part of the app shell that needs antd, loaded after the entry (router.tsx lazy-loads it):
 * /login is drawn without antd so that the entry stays small (issue 26, docs/web-performance.md).
 */
export { FullPageSpin, Guarded, HomeRedirect, NotFoundResult, RequireAuth } from './guard.tsx';

/** Every route but /login: antd's theme, locale and message API around the page. */
export function AntdRoot() {
  return (
    <AntdProviders>
      <Outlet />
    </AntdProviders>
  );
}

/** A page inside the main layout while its chunk loads: the menu and header stay. */
export function PageLoading() {
  return (
    <div style={{ padding: '96px 0', textAlign: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

/** The editor's full-screen fallback while its chunk loads. */
export function EditorLoading() {
  return (
    <div className="full-page-center">
      <Spin size="large" description={t.loadingHard} />
    </div>
  );
}

/** A route that failed to render or whose chunk failed to load (a new deployment removed it). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <AntdProviders>
      <div className="full-page-center">
        <Result
          status="error"
          title={t.errorTitle}
          subTitle={t.errorSub}
          extra={
            <Button type="primary" onClick={() => window.location.reload()}>
              {t.refresh}
            </Button>
          }
        />
      </div>
    </AntdProviders>
  );
}
