import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { appKeys, fetchFrame } from './api.ts';
import { FRAME_PATH } from './paths.ts';

/**
 * Where `/` lands after sign-in (spec 3 §2 "Full-screen dashboard frame"): a user whose userExtJson
 * carries bigdataId goes to that dashboard full screen (/bigscreen); everyone else to the default
 * address of 系统设置 when one is set, else `fallback` (the first page they may open). Should the
 * question fail, `fallback` too: nobody is kept from the product by it.
 */
export function FrameRedirect({ fallback }: { fallback: string }) {
  const frame = useQuery({ queryKey: appKeys.frame, queryFn: fetchFrame, staleTime: 0, retry: false, meta: { silent: true } });
  const address = frame.data?.defaultAddress ?? '';
  const external = frame.data && !frame.data.bigdataId && /^https?:\/\//i.test(address) ? address : null;
  useEffect(() => {
    if (external) window.location.assign(external);
  }, [external]);
  if (frame.isLoading || external) return <Spin size="large" style={{ display: 'block', margin: '96px auto' }} />;
  if (frame.data?.bigdataId) return <Navigate to={FRAME_PATH} replace />;
  return <Navigate to={address.startsWith('/') && address !== '/' ? address : fallback} replace />;
}
