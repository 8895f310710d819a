import { lazy, Suspense } from 'react';

/*
 * The parts of the app shell that need antd, as lazy components: the guard, the providers, the
 * spinners and the error page come from ./shell.tsx, one chunk loaded by every route but /login
 * (issue 26: the entry holds /login and no antd; while the shell loads, the splash stays). Used by
 * the entry's router (router.tsx) and by the route table (routes.tsx).
 */
export const shell = () => import('./shell.tsx');
export const AntdRoot = lazy(() => shell().then((m) => ({ default: m.AntdRoot })));
export const RequireAuth = lazy(() => shell().then((m) => ({ default: m.RequireAuth })));
const FullPageSpin = lazy(() => shell().then((m) => ({ default: m.FullPageSpin })));
export const HomeRedirect = lazy(() => shell().then((m) => ({ default: m.HomeRedirect })));
export const NotFoundResult = lazy(() => shell().then((m) => ({ default: m.NotFoundResult })));
const ShellRouteError = lazy(() => shell().then((m) => ({ default: m.RouteError })));
const ShellEditorLoading = lazy(() => shell().then((m) => ({ default: m.EditorLoading })));
const ShellPageLoading = lazy(() => shell().then((m) => ({ default: m.PageLoading })));
export const Guarded = lazy(() => shell().then((m) => ({ default: m.Guarded })));
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
