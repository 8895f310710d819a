import { lazy, Suspense, type ReactNode } from 'react';
import { lazyFrom, loader } from '../shared/charts/lazy-now.ts';
import type { RouteObject } from 'react-router';
import { PAGES, type PageKey } from './pages.ts';
import { EditorLoading, FullPageSpinner, Guarded, HomeRedirect, NotFoundResult, PageLoading, RequireAuth, RouteError, shell } from './shell-lazy.tsx';

/*
 * Every route but /login, in a chunk of its own that the router adds on the first navigation
 * elsewhere (router.tsx, patchRoutesOnNavigation): the route table, the page list with its
 * labels and the contracts they come from (zod and its schemas) are not part of the entry that
 * draws the login form (issue 26, docs/web-performance.md).
 */

const ChangeInitialPasswordPage = lazy(() => import('../features/auth/ChangeInitialPasswordPage.tsx'));

/*
 * Every page is its own chunk, loaded when first opened, so that /login (the first paint of most
 * visits) downloads only the shell and its form (issue 26, docs/web-performance.md). A page added
 * here should be lazy too: an eager import puts it, and all it imports, before the login form.
 */
/** The main layout (menu, header): not needed by /login, /share or the full-screen pages. */
const MainLayout = lazy(() => import('./layout/MainLayout.tsx').then((m) => ({ default: m.MainLayout })));
/** 权限组设置 with its grant tabs, which import every granted resource's tab: one chunk. */
const AuthGroupSettingRoute = lazy(async () => {
  const [{ AuthGroupSettingPage: Page }, { GRANT_TABS }] = await Promise.all([import('../features/perm/AuthGroupSettingPage.tsx'), import('./grant-tabs.tsx')]);
  return { default: () => <Page tabs={GRANT_TABS} notFound={<NotFoundResult />} /> };
});

const DatasetListPage = lazy(() => import('../features/dataset/DatasetListPage.tsx').then((m) => ({ default: m.DatasetListPage })));
const ReportListPage = lazy(() => import('../features/board/BoardListPage.tsx').then((m) => ({ default: m.ReportListPage })));
const VisualListPage = lazy(() => import('../features/board/BoardListPage.tsx').then((m) => ({ default: m.VisualListPage })));
const DataSourcePage = lazy(() => import('../features/datasource/DataSourcePage.tsx').then((m) => ({ default: m.DataSourcePage })));
const DictPage = lazy(() => import('../features/dict/DictPage.tsx').then((m) => ({ default: m.DictPage })));
const AuthGroupPage = lazy(() => import('../features/perm/AuthGroupPage.tsx').then((m) => ({ default: m.AuthGroupPage })));
const DeptsPage = lazy(() => import('../features/org/DeptsPage.tsx').then((m) => ({ default: m.DeptsPage })));
const RolesPage = lazy(() => import('../features/org/RolesPage.tsx').then((m) => ({ default: m.RolesPage })));
const UsersPage = lazy(() => import('../features/org/UsersPage.tsx').then((m) => ({ default: m.UsersPage })));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })));
const ExportTasksPage = lazy(() => import('../features/export/ExportTasksPage.tsx').then((m) => ({ default: m.ExportTasksPage })));
const PptListPage = lazy(() => import('../features/ppt/PptListPage.tsx').then((m) => ({ default: m.PptListPage })));
const SubscriptionLogPage = lazy(() => import('../features/subscription/SubscriptionLogPage.tsx').then((m) => ({ default: m.SubscriptionLogPage })));
const ShareListPage = lazy(() => import('../features/share/ShareListPage.tsx').then((m) => ({ default: m.ShareListPage })));
const SystemSettingsPage = lazy(() => import('../features/system/SystemSettingsPage.tsx').then((m) => ({ default: m.SystemSettingsPage })));
const HomePage = lazy(() => import('../features/home/HomePage.tsx').then((m) => ({ default: m.HomePage })));
const HeatmapPage = lazy(() => import('../features/heatmap/HeatmapPage.tsx').then((m) => ({ default: m.HeatmapPage })));
const HeatmapSitesPage = lazy(() => import('../features/heatmap/SitesPage.tsx').then((m) => ({ default: m.SitesPage })));
const AlertListPage = lazy(() => import('../features/alert/AlertListPage.tsx').then((m) => ({ default: m.AlertListPage })));
const AlertLogPage = lazy(() => import('../features/alert/AlertLogPage.tsx').then((m) => ({ default: m.AlertLogPage })));
const AlertSettingsPage = lazy(() => import('../features/alert/settings/AlertSettingsPage.tsx').then((m) => ({ default: m.AlertSettingsPage })));
const OrderExportPage = lazy(() => import('../features/orderexport/OrderExportPage.tsx').then((m) => ({ default: m.OrderExportPage })));
const MarketTasksPage = lazy(() => import('../features/market/MarketTasksPage.tsx').then((m) => ({ default: m.MarketTasksPage })));
const LeaveHandlePage = lazy(() => import('../features/workflow/LeaveHandlePage.tsx').then((m) => ({ default: m.LeaveHandlePage })));
const LeaveStartPage = lazy(() => import('../features/workflow/LeaveStartPage.tsx').then((m) => ({ default: m.LeaveStartPage })));
const WorkStartPage = lazy(() => import('../features/workflow/WorkStartPage.tsx').then((m) => ({ default: m.WorkStartPage })));
const DataApiListPage = lazy(() => import('../features/dataapi/DataApiListPage.tsx').then((m) => ({ default: m.DataApiListPage })));
const OpenApiPage = lazy(() => import('../features/dataapi/OpenApiPage.tsx').then((m) => ({ default: m.OpenApiPage })));
const DataApiAdminPage = lazy(() => import('../features/dataapi/admin/DataApiAdminPage.tsx').then((m) => ({ default: m.DataApiAdminPage })));

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

/**
 * The pages that index.html's first script preloads (vite.config.ts EARLY_ROUTES): their import
 * starts as this table loads, so the route renders without suspending (lazy-now.ts) when the
 * module is there by then.
 */
const pageLoaders = {
  BoardPreviewPage: loader(() => import('../features/board/preview/BoardPreviewPage.tsx')),
  OpenViewPage: loader(() => import('../features/board/preview/OpenViewPage.tsx')),
  ShareOpenPage: loader(() => import('../features/share-open/ShareOpenPage.tsx')),
  MobileHomePage: loader(() => import('../features/mobile/MobileHomePage.tsx')),
  MobileAppPage: loader(() => import('../features/mobile/MobileAppPage.tsx')),
};
const EARLY_PAGES: [RegExp, () => Promise<unknown>][] = [
  [/^\/newbi\/preview\/\d+\/?$/, pageLoaders.BoardPreviewPage],
  [/^\/share\//, pageLoaders.ShareOpenPage],
  [/^\/m\/?$/, pageLoaders.MobileHomePage],
  [/^\/m\/app\/\d+\/?$/, pageLoaders.MobileAppPage],
];
for (const [path, load] of EARLY_PAGES) if (path.test(window.location.pathname)) load().catch(() => undefined);

/**
 * Resolves once the page `pathname` opens and the app shell are loaded when that page is one of
 * EARLY_PAGES (at once otherwise): the router adds the routes after it, so that the page's first
 * render does not suspend. Suspended, it showed a fallback, and React then held the loaded page
 * back for 300 ms (its Suspense throttle): the board preview's trace sat idle 0.27 s so.
 */
export function earlyPageLoaded(pathname: string): Promise<unknown> {
  const page = EARLY_PAGES.find(([path]) => path.test(pathname));
  return page ? Promise.all([page[1](), shell()]).catch(() => undefined) : Promise.resolve();
}

/** The dataset editor is large (canvas, code editor): loaded on first use. */
const DatasetEditorPage = lazy(() => import('../features/dataset/editor/DatasetEditorPage.tsx'));
/** The board editors and the preview pages: full screen, each its own chunk. */
const BoardEditorPage = lazy(() => import('../features/board/editor/BoardEditorPage.tsx'));
const BoardPreviewPage = lazyFrom(pageLoaders.BoardPreviewPage, (m) => m.default);
const OpenViewPage = lazyFrom(pageLoaders.OpenViewPage, (m) => m.default);
const ChartJsonPage = lazy(() => import('../features/board/preview/ChartJsonPage.tsx'));
const PptEditorPage = lazy(() => import('../features/ppt/PptEditorPage.tsx'));
const PptViewerPage = lazy(() => import('../features/ppt/viewer/PptViewerPage.tsx'));
const ShareOpenPage = lazyFrom(pageLoaders.ShareOpenPage, (m) => m.default);
/** The data-API editors (code editor, charts): full screen, loaded on first use. */
const DataApiEditorPage = lazy(() => import('../features/dataapi/editor/DataApiEditorPage.tsx'));
const Type3EditorPage = lazy(() => import('../features/dataapi/editor/Type3EditorPage.tsx'));
/** The alert editor (issue 19), loaded on first use. */
const AlertEditorPage = lazy(() => import('../features/alert/editor/AlertEditorPage.tsx'));
/** Apps (issue 24; docs/apps.md): the list and editor, the phone viewer (/m) and the full-screen frame, each loaded on first use. */
const AppListPage = lazy(() => import('../features/app/AppListPage.tsx').then((m) => ({ default: m.AppListPage })));
const AppEditorPage = lazy(() => import('../features/app/AppEditorPage.tsx'));
const MobileHomePage = lazyFrom(pageLoaders.MobileHomePage, (m) => m.default);
const MobileAppPage = lazyFrom(pageLoaders.MobileAppPage, (m) => m.default);
const FramePage = lazy(() => import('../features/mobile/FramePage.tsx'));
/** Audiences (issue 18 A): the list and the dataset-driven editor, each loaded on first use. */
const AudienceListPage = lazy(() => import('../features/audience/AudienceListPage.tsx').then((m) => ({ default: m.AudienceListPage })));
const AudienceEditorPage = lazy(() => import('../features/audience/AudienceEditorPage.tsx').then((m) => ({ default: m.AudienceEditorPage })));
/** The tag pages (issue 18 B), each loaded on first use. */
const TagLibraryPage = lazy(() => import('../features/tag/TagLibraryPage.tsx').then((m) => ({ default: m.TagLibraryPage })));
const TagDetailPage = lazy(() => import('../features/tag/TagDetailPage.tsx').then((m) => ({ default: m.TagDetailPage })));
const TagAudiencePage = lazy(() => import('../features/tag/TagAudiencePage.tsx'));
const ProfileComparePage = lazy(() => import('../features/tag/ProfileComparePage.tsx').then((m) => ({ default: m.ProfileComparePage })));

const lazyPage = (element: ReactNode) => <Suspense fallback={<EditorLoading />}>{element}</Suspense>;

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
  authGroupSetting: <AuthGroupSettingRoute />,
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
  audience: lazyPage(<AudienceListPage />),
  audienceEdit: lazyPage(<AudienceEditorPage />),
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
  profileCompare: lazyPage(<ProfileComparePage />),
};

/** The pages under antd's providers: the link-opened ones (own token or none), then the signed-in ones. */
export function signedInOrLinkRoutes(): RouteObject[] {
  return [
    // The iframe preview (spec 1 §2.5): signed in by the short-lived token in its address, not the session.
    { path: '/openview/:id', element: lazyPage(<OpenViewPage />) },
    // Full-screen / mobile slideshow (spec 1 §2.10): a session, or a short-lived ?token= (server renderer).
    { path: '/fullpowerpoint/:ppid/:id?', element: lazyPage(<PptViewerPage full />) },
    // Share links open without a session where the link allows it.
    { path: '/share/:code', element: lazyPage(<ShareOpenPage />) },
    {
      element: <RequireAuth />,
      errorElement: <RouteError />,
      children: [
        // The first sign-in with the initial password: nothing else until it is changed (guard.tsx).
        { path: '/change-password', element: lazyPage(<ChangeInitialPasswordPage />) },
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
          element: (
            <Suspense fallback={<FullPageSpinner />}>
              <MainLayout />
            </Suspense>
          ),
          children: [
            { index: true, element: <HomeRedirect /> },
            ...PAGES.map((p) => ({
              path: p.path,
              element: (
                <Suspense fallback={<PageLoading />}>
                  <Guarded access={p.access}>{ELEMENTS[p.key]}</Guarded>
                </Suspense>
              ),
            })),
            { path: '*', element: <NotFoundResult /> },
          ],
        },
      ],
    },
  ];
}
