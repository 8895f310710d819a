import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button, Space, Tooltip } from 'antd';
import { CloseOutlined, FullscreenExitOutlined, FullscreenOutlined, NotificationOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { Board } from '@shutu/contracts';
import { AnchorNav } from '../runtime/AnchorNav.tsx';
import { BoardView, type BoardControls } from '../runtime/BoardView.tsx';
import { ClearLinkageButton, DialogChartButtons } from '../runtime/ControlButtons.tsx';
import { previewMessages as pm } from '../runtime/messages.ts';
import { sm } from '../../share/messages.ts';
import { BoardStatePanel } from './BoardStatePanel.tsx';
import { useBoardView } from './useBoardView.ts';
import { useRecordVisit } from '../../../shared/visits.ts';

// The dialogs' code (their forms and the contracts' schemas they validate with) loads when one is
// first opened, not with the board: evaluating it was part of every preview's load (issue 26).
const ShareDialog = lazy(() => import('../../share/ShareDialog.tsx').then((m) => ({ default: m.ShareDialog })));
const SubscriptionDialog = lazy(() => import('../../subscription/SubscriptionDialog.tsx').then((m) => ({ default: m.SubscriptionDialog })));

/** The top bar's dialogs, loaded on first use. */
type TopBarDialog = 'share' | 'subscribe';

/** Document full screen, followed through fullscreenchange (Esc leaves it too). */
function useDocumentFullscreen() {
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return { full, toggle };
}

function TopBar({ board, controls }: { board: Board; controls: BoardControls }) {
  const navigate = useNavigate();
  const { full, toggle } = useDocumentFullscreen();
  const [dialog, setDialog] = useState<TopBarDialog | null>(null);
  // Each dialog is mounted from its first opening on (closing animates; the form keeps what was typed).
  const [mounted, setMounted] = useState<ReadonlySet<TopBarDialog>>(() => new Set());
  const openDialog = (which: TopBarDialog) => {
    setMounted((m) => new Set(m).add(which));
    setDialog(which);
  };
  const closeDialog = () => setDialog(null);
  const close = () => {
    // Opened by the editor in a new tab: close it; opened from the list in this tab: back to the list.
    if (window.opener) window.close();
    else void navigate(`/newbi/${board.kind}`);
  };
  return (
    <div className="board-topbar" data-testid="board-topbar">
      <Tooltip title={board.title}>
        <div className="board-topbar-title" data-testid="board-title">
          {board.title}
        </div>
      </Tooltip>
      <Space size={8} wrap={false}>
        <DialogChartButtons controls={controls} />
        <AnchorNav controls={controls} content={board.content} />
        <ClearLinkageButton controls={controls} />
        <Button icon={<ShareAltOutlined />} data-testid="board-share" onClick={() => openDialog('share')}>
          {sm.share}
        </Button>
        <Button icon={<NotificationOutlined />} data-testid="board-subscribe" onClick={() => openDialog('subscribe')}>
          {pm.subscribe}
        </Button>
        <Button icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} data-testid="board-fullscreen" onClick={toggle}>
          {full ? pm.exitFullscreen : pm.fullscreen}
        </Button>
        <Button icon={<CloseOutlined />} data-testid="board-close" onClick={close}>
          {pm.close}
        </Button>
      </Space>
      <Suspense fallback={null}>
        {mounted.has('share') && <ShareDialog open={dialog === 'share'} dataType={board.kind} dataId={board.id} title={board.title} onClose={closeDialog} />}
        {mounted.has('subscribe') && (
          <SubscriptionDialog open={dialog === 'subscribe'} dataType={board.kind} dataId={board.id} subTitle={board.title} onClose={closeDialog} />
        )}
      </Suspense>
    </div>
  );
}

/**
 * /newbi/preview/{id}: a board, read-only, with its top bar (title, dialog charts, 导航,
 * 清除联动, 全屏, 关闭). 拼命加载中 while loading; 没有此大屏权限 when refused or missing.
 */
export default function BoardPreviewPage() {
  const id = Number(useParams().id);
  const { board, failure, onReady, retry } = useBoardView(id);
  useRecordVisit('board', board?.id);
  useEffect(() => {
    if (board) document.title = board.title;
  }, [board]);
  if (!board) return <BoardStatePanel failure={failure} onRetry={retry} />;
  // One call, each chart read alone (docs/board-speed.md); early.js sends it with the board's
  // definition, before the app's script has loaded.
  return (
    <div className="board-preview-page" data-testid="board-preview">
      <BoardView board={board} onReady={onReady} batch header={(controls) => <TopBar board={board} controls={controls} />} />
    </div>
  );
}
