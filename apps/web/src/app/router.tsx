import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, useRouteError } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { setPasswordChangeHandler, setUnauthorizedHandler } from '../shared/api.ts';
import { Guarded, HomeRedirect, NotFoundResult, RequireAuth } from './guard.tsx';
import { MainLayout } from './layout/MainLayout.tsx';
import { t } from '../shared/messages.ts';
import { PAGES, type PageKey } from './pages.ts';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import ChangeInitialPasswordPage, { changePasswordPath } from '../features/auth/ChangeInitialPasswordPage.tsx';
import { DatasetListPage } from '../features/dataset/DatasetListPage.tsx';
import { ReportListPage, VisualListPage } from '../features/board/BoardListPage.tsx';
import { DataSourcePage } from '../features/datasource/DataSourcePage.tsx';
import { DictPage } from '../features/dict/DictPage.tsx';
import { AuthGroupPage } from '../features/perm/AuthGroupPage.tsx';
import { AuthGroupSettingPage } from '../features/perm/AuthGroupSettingPage.tsx';
import { GRANT_TABS } from './grant-tabs.tsx';
import { DeptsPage } from '../features/org/DeptsPage.tsx';
import { RolesPage } from '../features/org/RolesPage.tsx';
import { UsersPage } from '../features/org/UsersPage.tsx';
import { ProfilePage } from '../features/profile/ProfilePage.tsx';
import { ExportTasksPage } from '../features/export/ExportTasksPage.tsx';
import { PptListPage } from '../features/ppt/PptListPage.tsx';
import { SubscriptionLogPage } from '../features/subscription/SubscriptionLogPage.tsx';
import { ShareListPage } from '../features/share/ShareListPage.tsx';
import { SystemSettingsPage } from '../features/system/SystemSettingsPage.tsx';
import { HomePage } from '../features/home/HomePage.tsx';
import { HeatmapPage } from '../features/heatmap/HeatmapPage.tsx';
import { SitesPage as HeatmapSitesPage } from '../features/heatmap/SitesPage.tsx';
import { AlertListPage, AlertLogPage, AlertSettingsPage } from '../features/alert/index.ts';
import { OrderExportPage } from '../features/orderexport/index.ts';
import { MarketTasksPage } from '../features/market/index.ts';
import { LeaveHandlePage, LeaveStartPage, WorkStartPage } from '../features/workflow/index.ts';
import { DataApiListPage } from '../features/dataapi/DataApiListPage.tsx';
import { OpenApiPage } from '../features/dataapi/OpenApiPage.tsx';
import { DataApiAdminPage } from '../features/dataapi/admin/DataApiAdminPage.tsx';

/** Connected platforms (issue 21): one chunk, loaded on first use. */
const cdpPage = (name: 'JoinListPage' | 'JoinInfoPage' | 'JoinLogPage' | 'JoinCallbackPage' | 'OfficialAccountsPage' | 'FanListPage' | 'PlatformTypesPage') =>
  lazy(() => import('../features/cdp/index.ts').then((m) => ({ default: m[name] })));
const CdpJoinListPage = cdpPage('JoinListPage');
const CdpJoinInfoPage = cdpPage('JoinInfoPage');
const CdpJoinLogPage = cdpPage('JoinLogPage');
const CdpJoinCallbackPage = cdpPage('JoinCallbackPage');
const CdpAccountsPage = cdpPage('OfficialAccountsPage');
const CdpFanListPage = cdpPage('FanListPage');
const CdpPlatformTypesPage = cdpPage('PlatformTypesPage');

/** The dataset editor is large (canvas, code editor): loaded on first use. */
const DatasetEditorPage = lazy(() => import('../features/dataset/editor/DatasetEditorPage.tsx'));
/** The board editors and the preview pages: full screen, each its own chunk. */
const BoardEditorPage = lazy(() => import('../features/board/editor/BoardEditorPage.tsx'));
const BoardPreviewPage = lazy(() => import('../features/board/preview/BoardPreviewPage.tsx'));
const OpenViewPage = lazy(() => import('../features/board/preview/OpenViewPage.tsx'));
const ChartJsonPage = lazy(() => import('../features/board/preview/ChartJsonPage.tsx'));
const PptEditorPage = lazy(() => import('../features/ppt/PptEditorPage.tsx'));
const PptViewerPage = lazy(() => import('../features/ppt/viewer/PptViewerPage.tsx'));
const ShareOpenPage = lazy(() => import('../features/share-open/ShareOpenPage.tsx'));
/** The data-API editors (code editor, charts): full screen, loaded on first use. */
const DataApiEditorPage = lazy(() => import('../features/dataapi/editor/DataApiEditorPage.tsx'));
const Type3EditorPage = lazy(() => import('../features/dataapi/editor/Type3EditorPage.tsx'));
/** The alert editor (issue 19), loaded on first use. */
const AlertEditorPage = lazy(() => import('../features/alert/editor/AlertEditorPage.tsx'));
/** Apps (issue 24; docs/apps.md): the list and editor, the phone viewer (/m) and the full-screen frame, each loaded on first use. */
const AppListPage = lazy(() => import('../features/app/AppListPage.tsx').then((m) => ({ default: m.AppListPage })));
const AppEditorPage = lazy(() => import('../features/app/AppEditorPage.tsx'));
const MobileHomePage = lazy(() => import('../features/mobile/MobileHomePage.tsx'));
const MobileAppPage = lazy(() => import('../features/mobile/MobileAppPage.tsx'));
const FramePage = lazy(() => import('../features/mobile/FramePage.tsx'));
/** The tag pages (issue 18 B), each loaded on first use. */
const TagLibraryPage = lazy(() => import('../features/tag/index.ts').then((m) => ({ default: m.TagLibraryPage })));
const TagDetailPage = lazy(() => import('../features/tag/index.ts').then((m) => ({ default: m.TagDetailPage })));
const TagAudiencePage = lazy(() => import('../features/tag/TagAudiencePage.tsx'));

const lazyPage = (element: ReactNode) => <Suspense fallback={<EditorLoading />}>{element}</Suspense>;

/** The editor's full-screen fallback while its chunk loads. */
function EditorLoading() {
  return (
    <div className="full-page-center">
      <Spin size="large" description={t.loadingHard} />
    </div>
  );
}

const ELEMENTS: Record<PageKey, ReactNode> = {
  home: <HomePage />,
  dataset: <DatasetListPage />,
  visual: <VisualListPage />,
  report: <ReportListPage />,
  users: <UsersPage />,
  depts: <DeptsPage />,
  roles: <RolesPage />,
  dict: <DictPage />,
  datasource: <DataSourcePage />,
  authGroup: <AuthGroupPage />,
  authGroupSetting: <AuthGroupSettingPage tabs={GRANT_TABS} notFound={<NotFoundResult />} />,
  settings: <SystemSettingsPage />,
  profile: <ProfilePage />,
  exportTasks: <ExportTasksPage />,
  ppt: <PptListPage />,
  subscriptionLog: <SubscriptionLogPage />,
  shares: <ShareListPage />,
  dataapi: <DataApiListPage />,
  dataapiDocs: <OpenApiPage />,
  dataapiAdmin: <DataApiAdminPage />,
  heatmap: <HeatmapPage />,
  heatmapSites: <HeatmapSitesPage />,
  orderExport: <OrderExportPage />,
  warning: <AlertListPage />,
  warningEdit: lazyPage(<AlertEditorPage />),
  warningLog: <AlertLogPage />,
  warningSettings: <AlertSettingsPage />,
  market: <MarketTasksPage />,
  workStart: <WorkStartPage />,
  leaveStart: <LeaveStartPage />,
  leaveHandle: <LeaveHandlePage />,
  cdpJoin: lazyPage(<CdpJoinListPage />),
  cdpJoinInfo: lazyPage(<CdpJoinInfoPage />),
  cdpJoinLog: lazyPage(<CdpJoinLogPage />),
  cdpJoinCallback: lazyPage(<CdpJoinCallbackPage />),
  cdpAccounts: lazyPage(<CdpAccountsPage />),
  cdpFans: lazyPage(<CdpFanListPage />),
  cdpPlatforms: lazyPage(<CdpPlatformTypesPage />),
  app: lazyPage(<AppListPage />),
  appEdit: lazyPage(<AppEditorPage />),
  tagLibrary: lazyPage(<TagLibraryPage />),
  tagDetail: lazyPage(<TagDetailPage />),
  tagAudience: lazyPage(<TagAudiencePage />),
};

function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
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
  );
}

export function createAppRouter(queryClient: QueryClient) {
  const router = createBrowserRouter([
    { path: '/login', element: <LoginPage />, errorElement: <RouteError /> },
    // The iframe preview (spec 1 §2.5): signed in by the short-lived token in its address, not the session.
    { path: '/openview/:id', element: lazyPage(<OpenViewPage />), errorElement: <RouteError /> },
    // Full-screen / mobile slideshow (spec 1 §2.10): a session, or a short-lived ?token= (server renderer).
    { path: '/fullpowerpoint/:ppid/:id?', element: lazyPage(<PptViewerPage full />), errorElement: <RouteError /> },
    // Share links open without a session where the link allows it.
    { path: '/share/:code', element: lazyPage(<ShareOpenPage />), errorElement: <RouteError /> },
    {
      element: <RequireAuth />,
      errorElement: <RouteError />,
      children: [
        // The first sign-in with the initial password: nothing else until it is changed (guard.tsx).
        { path: '/change-password', element: <ChangeInitialPasswordPage /> },
        // Full screen: signed in, outside the main layout and the menu.
        {
          path: '/newbi/dataset/edit',
          element: (
            <Suspense fallback={<EditorLoading />}>
              <DatasetEditorPage
                notFound={
                  <div className="full-page-center">
                    <NotFoundResult />
                  </div>
                }
              />
            </Suspense>
          ),
        },
        { path: '/newbi/:kind/bigdataEdit', element: lazyPage(<BoardEditorPage mode="screen" />) },
        { path: '/newbi/:kind/quickEdit', element: lazyPage(<BoardEditorPage mode="quick" />) },
        { path: '/newbi/preview/:id', element: lazyPage(<BoardPreviewPage />) },
        { path: '/newbi/json/:boardId/:chartKey', element: lazyPage(<ChartJsonPage />) },
        { path: '/newbi/ppt/edit', element: lazyPage(<PptEditorPage />) },
        { path: '/newbi/ppt/view/:ppid/:id?', element: lazyPage(<PptViewerPage full={false} />) },
        // Data-API editors (spec 2 §2): ?id= or ?apiKey=; the first save moves to ?id=.
        { path: '/apiedit', element: lazyPage(<DataApiEditorPage withChart={false} />) },
        { path: '/apiedit1', element: lazyPage(<DataApiEditorPage withChart />) },
        { path: '/apiedit3', element: lazyPage(<Type3EditorPage />) },
        // Apps (issue 24): the phone viewer and the full-screen dashboard frame, outside the main layout.
        { path: '/m', element: lazyPage(<MobileHomePage />) },
        { path: '/m/app/:id', element: lazyPage(<MobileAppPage />) },
        { path: '/bigscreen', element: lazyPage(<FramePage />) },
        {
          element: <MainLayout />,
          children: [
            { index: true, element: <HomeRedirect /> },
            ...PAGES.map((p) => ({ path: p.path, element: <Guarded access={p.access}>{ELEMENTS[p.key]}</Guarded> })),
            { path: '*', element: <NotFoundResult /> },
          ],
        },
      ],
    },
  ]);
  // A 401 anywhere: forget cached answers of the old session and go to login, coming back afterwards.
  setUnauthorizedHandler((url) => {
    queryClient.removeQueries({ queryKey: ['auth'] });
    void router.navigate(url, { replace: true });
  });
  // A 403 请先修改初始密码 (the flag was set while the app was open): refresh who we are and change it first.
  setPasswordChangeHandler(() => {
    void queryClient.invalidateQueries({ queryKey: ['auth'] });
    const here = `${window.location.pathname}${window.location.search}`;
    if (!here.startsWith('/change-password')) void router.navigate(changePasswordPath(here), { replace: true });
  });
  return router;
}
