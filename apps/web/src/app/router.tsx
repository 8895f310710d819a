import { Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { getToken, loginPath, setPasswordChangeHandler, setUnauthorizedHandler } from '../shared/api.ts';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { changePasswordPath } from '../features/auth/paths.ts';
import { Splash } from './Splash.tsx';
import { AntdRoot, RouteError } from './shell-lazy.tsx';

/*
 * The entry's router knows /login and nothing else (issue 26, docs/web-performance.md): every
 * other route is in ./routes.tsx, a chunk added under the `shell` route on the first navigation
 * anywhere else (patchRoutesOnNavigation; index.html's first script preloads it on those
 * pages). The route table imports the page list with its labels, and with them the contracts'
 * schemas and zod, none of which the login form needs.
 */

/** Pages opened by a link's own token (or none): no session needed. */
const LINK_PAGE = /^\/(share|openview|fullpowerpoint)\//;

/** Whether a visitor must sign in first to open `pathname`: no stored session and not a link page. */
function needsLogin(pathname: string): boolean {
  return !getToken() && !LINK_PAGE.test(pathname);
}

/**
 * A visitor without a stored session goes to /login at once, before the shell's chunks load
 * (RequireAuth, in the shell, checks the session itself for everyone else).
 */
function TokenGate() {
  const location = useLocation();
  if (needsLogin(location.pathname)) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}

/** The id of the route the route table is added under. */
const SHELL_ROUTE = 'shell';

export function createAppRouter(queryClient: QueryClient) {
  let routesAdded: Promise<void> | null = null;
  const router = createBrowserRouter(
    [
      { path: '/login', element: <LoginPage />, errorElement: <RouteError /> },
      {
        element: <TokenGate />,
        errorElement: <RouteError />,
        // While the route table loads on a first visit to any other page.
        hydrateFallbackElement: <Splash />,
        children: [
          {
            // Every other page: antd's providers first (./shell.tsx); the splash stays while they load.
            id: SHELL_ROUTE,
            element: (
              <Suspense fallback={<Splash />}>
                <AntdRoot />
              </Suspense>
            ),
            errorElement: <RouteError />,
            children: [],
          },
          // Matches any address until the route table is added, so that TokenGate runs (and sends a
          // visitor without a session to /login) without loading it; after it, the table's own
          // catch-all (不存在的页面) comes first: routes of equal rank match in the order given.
          { path: '*', element: <Splash /> },
        ],
      },
    ],
    {
      async patchRoutesOnNavigation({ path, patch }) {
        if (needsLogin(path)) return;
        routesAdded ??= import('./routes.tsx').then(async ({ signedInOrLinkRoutes, earlyPageLoaded }) => {
          // A preloaded page (the board preview, a share link, the phone viewer) renders without suspending.
          await earlyPageLoaded(path);
          patch(SHELL_ROUTE, signedInOrLinkRoutes());
        });
        try {
          await routesAdded;
        } catch (error) {
          // A chunk that failed to load (a new deployment removed it): the error page, and the next navigation tries again.
          routesAdded = null;
          throw error;
        }
      },
    },
  );
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
