import { Suspense } from 'react';
import { lazyFrom, loader } from '../shared/charts/lazy-now.ts';

/*
 * The parts of the app shell that need antd, as lazy components: the guard, the providers, the
 * spinners and the error page come from ./shell.tsx, one chunk loaded by every route but /login
 * (issue 26: the entry holds /login and no antd; while the shell loads, the splash stays). Used by
 * the entry's router (router.tsx) and by the route table (routes.tsx).
 */
// Once the shell has loaded, each of these renders without suspending (lazy-now.ts).
export const shell = loader(() => import('./shell.tsx'));
export const AntdRoot = lazyFrom(shell, (m) => m.AntdRoot);
export const RequireAuth = lazyFrom(shell, (m) => m.RequireAuth);
const FullPageSpin = lazyFrom(shell, (m) => m.FullPageSpin);
export const HomeRedirect = lazyFrom(shell, (m) => m.HomeRedirect);
export const NotFoundResult = lazyFrom(shell, (m) => m.NotFoundResult);
const ShellRouteError = lazyFrom(shell, (m) => m.RouteError);
const ShellEditorLoading = lazyFrom(shell, (m) => m.EditorLoading);
const ShellPageLoading = lazyFrom(shell, (m) => m.PageLoading);
export const Guarded = lazyFrom(shell, (m) => m.Guarded);
/** A fallback that is itself lazy needs a boundary of its own (nothing shows in the moment it loads). */
export const EditorLoading = () => (
  <Suspense fallback={null}>
    <ShellEditorLoading />
  </Suspense>
);
export const PageLoading = () => (
  <Suspense fallback={null}>
    <ShellPageLoading />
  </Suspense>
);
export const FullPageSpinner = () => (
  <Suspense fallback={null}>
    <FullPageSpin />
  </Suspense>
);
export const RouteError = () => (
  <Suspense fallback={null}>
    <ShellRouteError />
  </Suspense>
);
