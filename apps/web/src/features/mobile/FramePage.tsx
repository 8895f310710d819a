import { useEffect } from 'react';
import { Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { HOME_PATH } from '@shutu/contracts';
import { BoardView } from '../board/runtime/BoardView.tsx';
import { BoardStatePanel } from '../board/preview/BoardStatePanel.tsx';
import { useBoardView } from '../board/preview/useBoardView.ts';
import { appKeys, fetchFrame } from '../app/api.ts';
import './mobile.css';

function FullScreenBoard({ id }: { id: number }) {
  const { board, failure, onReady, retry } = useBoardView(id);
  if (!board) return <BoardStatePanel failure={failure} onRetry={retry} />;
  return (
    <div className="frame-board" data-testid="frame-board" data-board-id={id}>
      <BoardView board={board} onReady={onReady} />
    </div>
  );
}

/**
 * /bigscreen, where `/` lands after sign-in (spec 3 §2 "Full-screen dashboard frame"): a user
 * whose userExtJson carries bigdataId sees that dashboard full screen (with the desktop viewer's
 * permission: 没有此大屏权限); everyone else goes to the default address of 系统设置, or 首页.
 */
export default function FramePage() {
  const frame = useQuery({ queryKey: appKeys.frame, queryFn: fetchFrame, staleTime: 0, retry: false });
  const external = frame.data && !frame.data.bigdataId && /^https?:\/\//i.test(frame.data.defaultAddress) ? frame.data.defaultAddress : null;
  useEffect(() => {
    if (external) window.location.assign(external);
  }, [external]);
  if (frame.isLoading || external) return <Spin className="m-center" size="large" />;
  if (frame.data?.bigdataId) return <FullScreenBoard id={frame.data.bigdataId} />;
  const address = frame.data?.defaultAddress;
  return <Navigate to={address && address !== '/' && !address.startsWith('/bigscreen') ? address : HOME_PATH} replace />;
}
