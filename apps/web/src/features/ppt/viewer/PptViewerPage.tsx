import { useCallback, useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { pptRoutes } from '@shutu/contracts';
import { getToken, loginPath, setTokenOverride } from '../../../shared/api.ts';
import { useRecordVisit } from '../../../shared/visits.ts';
import { PptViewer } from './PptViewer.tsx';
import { pathRules, viewerFlags } from './viewer-rules.ts';

/**
 * The slideshow viewer's routes (spec 1 §2.10): /newbi/ppt/view/{ppid}/{id} (signed in) and
 * /fullpowerpoint/{ppid}/{id} (full screen and mobile: a session or a short-lived ?token=,
 * the server's PDF renderer). The viewer itself is PptViewer (a shared slideshow uses it too);
 * this page reads the address for it and makes the address follow the dashboard on screen.
 */
export default function PptViewerPage({ full }: { full: boolean }) {
  const location = useLocation();
  const [search] = useSearchParams();
  const token = full ? search.get('token')?.trim() || null : null;
  // Set before the first query runs (queries start after render), undone on leaving.
  useState(() => token && setTokenOverride(token));
  useEffect(() => {
    if (!token) return;
    setTokenOverride(token);
    return () => setTokenOverride(null);
  }, [token]);
  // /fullpowerpoint is outside the signed-in routes: without a token it needs the session.
  if (full && !token && !getToken()) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return <RoutedViewer full={full} token={token} />;
}

function RoutedViewer({ full, token }: { full: boolean; token: string | null }) {
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const [search] = useSearchParams();
  const ppid = Number(params.ppid);
  const routeId = Number(params.id ?? 0) || 0;
  // 首页's 最近访问; not for the server's renderer (a ?token= address).
  useRecordVisit('ppt', token ? null : ppid);

  // The address follows the dashboard on screen (replaced, not pushed), the query kept.
  const followAddress = useCallback(
    (boardId: number) => {
      if (boardId === routeId) return;
      const base = full ? pptRoutes.full(ppid, boardId) : pptRoutes.view(ppid, boardId);
      void navigate(`${base}${location.search}`, { replace: true });
    },
    [routeId, full, ppid, location.search, navigate],
  );

  return (
    <PptViewer
      ppid={ppid}
      initialId={routeId}
      full={full}
      rules={pathRules(location.pathname)}
      flags={viewerFlags(search)}
      token={token}
      onCurrentChange={followAddress}
    />
  );
}
