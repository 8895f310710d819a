import { useCallback, useEffect, useMemo, useRef, useState, type TouchEvent } from 'react';
import { useLocation } from 'react-router';
import { App, Button, Result, Segmented, Space, Tag, Tooltip } from 'antd';
import {
  CloudDownloadOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  InboxOutlined,
  LeftOutlined,
  MailOutlined,
  RightOutlined,
  StarOutlined,
  UpOutlined,
  DownOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { pptRoutes, type Board, type BoardState } from '@shutu/contracts';
import { BoardStatePanel } from '../../board/preview/BoardStatePanel.tsx';
import { failureOf, type BoardFailure } from '../../board/preview/useBoardView.ts';
import { AnchorNav } from '../../board/runtime/AnchorNav.tsx';
import type { BoardControls } from '../../board/runtime/BoardView.tsx';
import { useBoardStateAttribute } from '../../board/runtime/board-state.ts';
import { ClearLinkageButton, DialogChartButtons } from '../../board/runtime/ControlButtons.tsx';
import { SubscriptionDialog } from '../../subscription/SubscriptionDialog.tsx';
import { fetchPptDetail, pptKeys } from '../api.ts';
import { FavouriteArchiveDialog } from '../FavouriteArchiveDialog.tsx';
import { useAutoPlay } from './autoplay.ts';
import { vm } from './messages.ts';
import { PdfExportDialog } from './PdfExportDialog.tsx';
import { Slide } from './Slide.tsx';
import { NumberButtons, ThumbnailGrid } from './SlideSwitcher.tsx';
import { keyStep, nextWrapping, slideIndex, step, visibleButtons, type PathRules, type ViewerFlags } from './viewer-rules.ts';
import { WatermarkOverlay } from './WatermarkOverlay.tsx';
import './viewer.css';

/** Document full screen, followed through fullscreenchange (Esc leaves it too). */
function useDocumentFullscreen() {
  const [on, setOn] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return { on, toggle };
}

/** Typing in a field (a dialog's input) must not page. */
const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
/** A horizontal swipe this long pages on touch screens (the mobile form). */
const SWIPE_PX = 60;

export interface PptViewerProps {
  ppid: number;
  /** The dashboard to open on; 0 or not in the slideshow: the first. */
  initialId: number;
  /** The full-screen form (/fullpowerpoint): 全屏 toggles the document's full screen. */
  full: boolean;
  rules: PathRules;
  flags: ViewerFlags;
  /** The token override in use (a view token or a share link's), passed on to the PDF download. */
  token: string | null;
  /**
   * Opened through a share link, without a session: 订阅, 导出pdf, 收藏 and 归档 are left out,
   * chart tools are off and 全屏 toggles the document's full screen (no new window to sign in).
   */
  shared?: boolean;
  /** The boards the share link's token may read (in the slideshow's order); the others are left out. */
  boardIds?: readonly number[];
  /** The dashboard on screen changed (the routed page writes it into the address). */
  onCurrentChange?: (boardId: number) => void;
}

/**
 * The slideshow viewer itself (spec 1 §2.10, docs/slideshows.md): the routed page
 * (PptViewerPage) and a shared slideshow (/share/{code}) both render it. It reads the
 * slideshow through whatever token the API uses (the session or a token override).
 */
export function PptViewer({ ppid, initialId, full, rules, flags, token, shared = false, boardIds, onCurrentChange }: PptViewerProps) {
  const { message } = App.useApp();
  const location = useLocation();
  const buttons = visibleButtons(rules, flags, shared);
  const valid = Number.isSafeInteger(ppid) && ppid > 0;
  const detailQuery = useQuery({
    queryKey: pptKeys.detail(ppid),
    queryFn: () => fetchPptDetail(ppid),
    enabled: valid,
    retry: false,
    staleTime: Infinity,
    meta: { silent: true },
  });
  const detail = detailQuery.data?.detail;
  const visuals = useMemo(() => {
    const list = detailQuery.data?.visualList ?? [];
    return boardIds ? list.filter((v) => boardIds.includes(v.id)) : list;
  }, [detailQuery.data, boardIds]);

  const [currentId, setCurrentId] = useState(initialId);
  const index = slideIndex(visuals, currentId);
  const current = visuals[index];
  const count = visuals.length;

  // Dashboards visited so far stay mounted: each loads its charts once.
  const [visited, setVisited] = useState<ReadonlySet<number>>(() => new Set());
  // Recorded while rendering (React's "adjust state on a change" pattern): no extra effect pass.
  if (current && !visited.has(current.id)) setVisited(new Set(visited).add(current.id));
  const mounted = visuals.filter((v) => visited.has(v.id) || v.id === current?.id);

  // The page around the viewer hears which dashboard is on screen (the routed page puts it in the address).
  const currentBoardId = current?.id;
  useEffect(() => {
    if (currentBoardId !== undefined) onCurrentChange?.(currentBoardId);
  }, [currentBoardId, onCurrentChange]);

  useEffect(() => {
    if (detail) document.title = current ? `${detail.ppName} - ${current.title}` : detail.ppName;
  }, [detail, current]);

  // The render state on <html>: the current dashboard's (the server's PDF renderer waits for it).
  const [readyIds, setReadyIds] = useState<ReadonlySet<number>>(() => new Set());
  const [failures, setFailures] = useState<ReadonlyMap<number, BoardFailure>>(() => new Map());
  const onReady = useCallback((id: number) => setReadyIds((s) => (s.has(id) ? s : new Set(s).add(id))), []);
  const onFailure = useCallback((id: number, failure: BoardFailure) => setFailures((m) => (m.get(id) === failure ? m : new Map(m).set(id, failure))), []);
  const pageFailure: BoardFailure | null = !valid ? 'forbidden' : detailQuery.error ? failureOf(detailQuery.error) : null;
  const slideFailure = current ? (failures.get(current.id) ?? null) : null;
  const failure = pageFailure ?? slideFailure;
  const state: BoardState = failure
    ? failure === 'error'
      ? 'error'
      : 'refused'
    : detailQuery.data && count === 0
      ? 'refused'
      : current && readyIds.has(current.id)
        ? 'ready'
        : 'loading';
  useBoardStateAttribute(state);

  const go = useCallback((i: number) => visuals[i] && setCurrentId(visuals[i].id), [visuals]);
  const stepBy = useCallback(
    (delta: -1 | 1) => {
      const next = step(index, delta, count);
      if (next.warning) void message.warning({ content: next.warning, key: 'ppt-paging' });
      else go(next.index);
    },
    [index, count, go, message],
  );

  // Keys 37 / 39 page.
  useEffect(() => {
    if (flags.print) return;
    const onKey = (event: KeyboardEvent) => {
      const delta = keyStep(event);
      if (delta && !isTyping(event.target)) stepBy(delta);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stepBy, flags.print]);

  // Swipes page on touch screens.
  const touchX = useRef<number | null>(null);
  const onTouchStart = (e: TouchEvent) => (touchX.current = e.touches[0]?.clientX ?? null);
  const onTouchEnd = (e: TouchEvent) => {
    const from = touchX.current;
    const to = e.changedTouches[0]?.clientX;
    touchX.current = null;
    if (from === null || to === undefined || Math.abs(to - from) < SWIPE_PX) return;
    stepBy(to < from ? 1 : -1);
  };

  const settings = detail?.settings;
  useAutoPlay(!!settings?.autoPlay && !flags.print && count > 1, settings?.interval ?? 0, () => go(nextWrapping(index, count)));

  const [collapsed, setCollapsed] = useState(false);
  const [switcher, setSwitcher] = useState<'numbers' | 'thumbs'>('numbers');
  const [dialog, setDialog] = useState<'subscribe' | 'pdf' | 'favourite' | 'archive' | null>(null);
  const [controlsSlot, setControlsSlot] = useState<HTMLElement | null>(null);
  const fullscreen = useDocumentFullscreen();
  // The normal viewer opens the full-screen form in a new window; the full form, and a share
  // link's visitor (a new window would have neither session nor token), use the document's full screen.
  const togglesDocument = full || shared;
  const openFull = () => {
    if (togglesDocument) fullscreen.toggle();
    else window.open(`${pptRoutes.full(ppid, current?.id ?? 0)}${location.search}`, '_blank');
  };

  if (!valid || pageFailure) return <BoardStatePanel failure={pageFailure ?? 'forbidden'} onRetry={() => void detailQuery.refetch()} />;
  if (!detail) return <BoardStatePanel failure={null} />;

  const showTopBar = !rules.hideTopBar && !flags.print;
  const showChrome = !flags.print;
  const month = flags.archive || detail.visualType === 2 ? detail.ppMonth : null;
  const renderControls = (board: Board, controls: BoardControls) =>
    buttons.boardControls ? (
      <Space size={8} wrap={false}>
        <DialogChartButtons controls={controls} />
        {(showTopBar || controls.anchors.length > 0) && <AnchorNav controls={controls} content={board.content} />}
        <ClearLinkageButton controls={controls} />
      </Space>
    ) : null;
  const fullLabel = togglesDocument && fullscreen.on ? vm.exitFullscreen : vm.fullscreen;
  const fullIcon = togglesDocument && fullscreen.on ? <FullscreenExitOutlined /> : <FullscreenOutlined />;

  const topBar = (
    <div className="pptv-topbar" data-testid="ppt-topbar">
      <div className="pptv-topbar-title">
        <Tooltip title={detail.ppName}>
          <span className="pptv-name" data-testid="ppt-name">
            {detail.ppName}
          </span>
        </Tooltip>
        {month && <Tag color="blue">{vm.archiveMonth(month)}</Tag>}
        {current && (
          <span className="pptv-current-title" data-testid="ppt-current-title">
            {current.title}
          </span>
        )}
      </div>
      <div className="pptv-topbar-switcher">
        <Segmented
          size="small"
          value={switcher}
          onChange={(v) => setSwitcher(v as 'numbers' | 'thumbs')}
          options={[
            { label: vm.numbers, value: 'numbers' },
            { label: vm.thumbnails, value: 'thumbs' },
          ]}
          data-testid="ppt-switcher-mode"
        />
        {switcher === 'numbers' && <NumberButtons visuals={visuals} index={index} onGo={go} />}
      </div>
      <Space size={8} wrap={false} className="pptv-topbar-actions">
        <span ref={setControlsSlot} className="pptv-board-controls" />
        {buttons.subscribe && (
          <Button icon={<MailOutlined />} data-testid="ppt-subscribe" onClick={() => setDialog('subscribe')}>
            {vm.subscribe}
          </Button>
        )}
        {buttons.exportPdf && (
          <Button icon={<CloudDownloadOutlined />} data-testid="ppt-export-pdf" onClick={() => setDialog('pdf')}>
            {vm.exportPdf}
          </Button>
        )}
        {buttons.fullscreen && (
          <Button icon={fullIcon} data-testid="ppt-fullscreen" onClick={openFull}>
            {fullLabel}
          </Button>
        )}
        {buttons.favourite && (
          <Button icon={<StarOutlined />} data-testid="ppt-favourite" onClick={() => setDialog('favourite')}>
            {vm.favourite}
          </Button>
        )}
        {buttons.archive && (
          <Button icon={<InboxOutlined />} data-testid="ppt-archive" onClick={() => setDialog('archive')}>
            {vm.archive}
          </Button>
        )}
        <Tooltip title={vm.collapse}>
          <Button type="text" icon={<UpOutlined />} aria-label={vm.collapse} data-testid="ppt-collapse" onClick={() => setCollapsed(true)} />
        </Tooltip>
      </Space>
    </div>
  );

  const classes = ['pptv-viewer', full ? 'pptv-viewer-full' : '', rules.mobile ? 'pptv-viewer-mobile' : '', flags.print ? 'pptv-viewer-print' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} data-testid="ppt-viewer" data-shared={shared || undefined} data-index={index} data-current-id={current?.id ?? ''}>
      {showTopBar && !collapsed && topBar}
      {showTopBar && !collapsed && switcher === 'thumbs' && <ThumbnailGrid visuals={visuals} index={index} onGo={go} />}
      {showTopBar && collapsed && (
        <button type="button" className="pptv-expand-handle" data-testid="ppt-expand" onClick={() => setCollapsed(false)}>
          <DownOutlined /> {vm.expand}
        </button>
      )}
      <div className="pptv-stage" data-testid="ppt-stage" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        {count === 0 ? (
          <Result status="info" title={vm.noVisuals} />
        ) : (
          mounted.map((v) => (
            <Slide
              key={v.id}
              visual={v}
              current={v.id === current?.id}
              controlsSlot={controlsSlot}
              renderControls={renderControls}
              onReady={onReady}
              onFailure={onFailure}
              tools={!shared}
            />
          ))
        )}
        {flags.watermark && showChrome && <WatermarkOverlay text={flags.watermark} />}
        {showChrome && count > 0 && (
          <>
            <Tooltip title={vm.prev} placement="right">
              <button
                type="button"
                className="pptv-arrow pptv-arrow-prev"
                title={vm.prev}
                aria-label={vm.prev}
                data-testid="ppt-prev"
                onClick={() => stepBy(-1)}
              >
                <LeftOutlined />
              </button>
            </Tooltip>
            <Tooltip title={vm.next} placement="left">
              <button
                type="button"
                className="pptv-arrow pptv-arrow-next"
                title={vm.next}
                aria-label={vm.next}
                data-testid="ppt-next"
                onClick={() => stepBy(1)}
              >
                <RightOutlined />
              </button>
            </Tooltip>
          </>
        )}
        {!showTopBar && showChrome && (
          <div className="pptv-floatbar" data-testid="ppt-floatbar">
            <span className="pptv-page-indicator" data-testid="ppt-page-indicator">
              {vm.pageOf(index + 1, count)}
            </span>
            <span ref={setControlsSlot} className="pptv-board-controls" />
            {buttons.fullscreen && (
              <Button size="small" icon={fullIcon} data-testid="ppt-fullscreen" onClick={openFull}>
                {fullLabel}
              </Button>
            )}
          </div>
        )}
      </div>
      {dialog === 'pdf' && <PdfExportDialog open ppid={ppid} visuals={visuals} currentId={current?.id ?? 0} token={token} onClose={() => setDialog(null)} />}
      {buttons.subscribe && (
        <SubscriptionDialog open={dialog === 'subscribe'} dataType="ppt" dataId={ppid} subTitle={detail.ppName} onClose={() => setDialog(null)} />
      )}
      {(dialog === 'favourite' || dialog === 'archive') && (
        <FavouriteArchiveDialog open mode={dialog} source={detail} onClose={() => setDialog(null)} onDone={() => setDialog(null)} />
      )}
    </div>
  );
}
