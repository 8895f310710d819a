import { useEffect, useLayoutEffect, useRef, useState, type DragEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Select } from 'antd';
import { PushpinFilled } from '@ant-design/icons';
import { previewScale, type ChartType } from '@shutu/contracts';
import { safeUrl } from '../../../shared/charts/index.ts';
import { LiveChart, useFirstLoadLinks } from './LiveChart.tsx';
import { et } from './messages.ts';
import { HANDLES, resizeRect, snapMove, type EditorDoc, type Guide, type Handle, type Rect, type SitePatch } from './state.ts';
import type { ChartDraft } from './types.ts';

export const CHART_DRAG_TYPE = 'application/x-shutu-chart';
/** Screen pixels within which edges snap to each other (divided by the scale in design pixels). */
const SNAP_SCREEN_PX = 6;
/** A press that moves less than this (screen pixels) is a click: it selects and records nothing. */
const CLICK_SLOP = 3;

export type Zoom = 'fit' | 0.5 | 0.75 | 1;
const ZOOMS: { value: Zoom; label: string }[] = [
  { value: 'fit', label: et.fit },
  { value: 0.5, label: '50%' },
  { value: 0.75, label: '75%' },
  { value: 1, label: '100%' },
];
/** Room around the board inside the scroller (px). */
const STAGE_PAD = 32;

interface Props {
  doc: EditorDoc;
  selectedKey: string | null;
  onSelect(key: string | null): void;
  /** A drag or resize ended: one change. */
  onPlace(patch: SitePatch): void;
  onDropType(type: ChartType, at: { x: number; y: number }): void;
}

interface Interaction {
  kind: 'move' | 'resize';
  key: string;
  handle: Handle | null;
  startX: number;
  startY: number;
  start: Rect;
  moved: boolean;
}

const rectOf = (c: ChartDraft): Rect => ({ x: c.site.x, y: c.site.y, w: c.site.w, h: c.site.h });

/** The free-position canvas of a screen board: the design-size board, scaled; charts placed by their sites. */
export function ScreenCanvas({ doc, selectedKey, onSelect, onPlace, onDropType }: Props) {
  const { content, charts } = doc;
  const links = useFirstLoadLinks(charts);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [room, setRoom] = useState({ width: 0, height: 0 });
  const [live, setLive] = useState<{ key: string; rect: Rect; guides: Guide[] } | null>(null);
  const interaction = useRef<Interaction | null>(null);
  const liveRef = useRef(live);

  useLayoutEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const measure = () => setRoom({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // 适应: the whole board fits (the smaller of the two ratios, rounded down like the preview).
  const fit =
    room.width > 0
      ? Math.max(0.1, Math.min(previewScale(room.width - STAGE_PAD * 2, content.width), previewScale(room.height - STAGE_PAD * 2, content.height)))
      : 0.5;
  const scale = zoom === 'fit' ? fit : zoom;

  // Keep the latest values for the window listeners of a drag.
  const latest = useRef({ charts, content, scale, onPlace, onSelect });
  useEffect(() => {
    latest.current = { charts, content, scale, onPlace, onSelect };
  });

  useEffect(() => {
    const showLive = (next: typeof liveRef.current) => {
      liveRef.current = next;
      setLive(next);
    };
    const move = (e: PointerEvent) => {
      const it = interaction.current;
      if (!it) return;
      const { charts: all, content: c, scale: s } = latest.current;
      const sx = e.clientX - it.startX;
      const sy = e.clientY - it.startY;
      if (!it.moved && Math.abs(sx) < CLICK_SLOP && Math.abs(sy) < CLICK_SLOP) return;
      it.moved = true;
      const options = { board: { width: c.width, height: c.height }, others: all.filter((o) => o.key !== it.key).map(rectOf), threshold: SNAP_SCREEN_PX / s };
      const next =
        it.kind === 'move'
          ? snapMove({ ...it.start, x: it.start.x + sx / s, y: it.start.y + sy / s }, options)
          : resizeRect(it.start, it.handle!, sx / s, sy / s, options);
      showLive({ key: it.key, ...next });
    };
    const up = () => {
      const it = interaction.current;
      if (!it) return;
      interaction.current = null;
      const current = liveRef.current;
      showLive(null);
      // One history entry per drag, recorded when it ends.
      if (it.moved && current) latest.current.onPlace({ key: it.key, site: current.rect });
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
    };
  }, []);

  const begin = (e: ReactPointerEvent, chart: ChartDraft, handle: Handle | null) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.preventDefault();
    onSelect(chart.key);
    interaction.current = {
      kind: handle ? 'resize' : 'move',
      key: chart.key,
      handle,
      startX: e.clientX,
      startY: e.clientY,
      start: rectOf(chart),
      moved: false,
    };
  };

  const drop = (e: DragEvent) => {
    const type = e.dataTransfer.getData(CHART_DRAG_TYPE) as ChartType;
    const board = boardRef.current;
    if (!type || !board) return;
    e.preventDefault();
    const box = board.getBoundingClientRect();
    onDropType(type, { x: (e.clientX - box.left) / scale, y: (e.clientY - box.top) / scale });
  };

  const bgImage = safeUrl(content.bgImg);
  return (
    <div className="be-screen">
      <div className="be-screen-scroller" ref={scrollerRef} onPointerDown={() => onSelect(null)}>
        <div className="be-screen-stage" style={{ width: content.width * scale + STAGE_PAD * 2, height: content.height * scale + STAGE_PAD * 2 }}>
          <div className="be-screen-frame" style={{ width: content.width * scale, height: content.height * scale }}>
            <div
              ref={boardRef}
              className="be-screen-board"
              data-testid="screen-board"
              data-scale={scale}
              style={{
                width: content.width,
                height: content.height,
                transform: `scale(${scale})`,
                backgroundColor: content.bgColor || '#ffffff',
                ...(bgImage ? { backgroundImage: `url(${JSON.stringify(bgImage)})`, backgroundSize: '100% 100%' } : {}),
              }}
              onDragOver={(e) => {
                if (e.dataTransfer.types.includes(CHART_DRAG_TYPE)) e.preventDefault();
              }}
              onDrop={drop}
            >
              {charts.length === 0 && (
                <div className="be-empty" style={{ fontSize: 16 / scale }}>
                  {et.emptyCanvas}
                </div>
              )}
              {charts.map((chart) => {
                const rect = live?.key === chart.key ? live.rect : rectOf(chart);
                const selected = chart.key === selectedKey;
                return (
                  <div
                    key={chart.key}
                    className={`be-item${selected ? ' is-selected' : ''}`}
                    data-testid="editor-chart"
                    data-chart-key={chart.key}
                    data-title={chart.title}
                    style={{ left: rect.x, top: rect.y, width: rect.w, height: rect.h, zIndex: chart.site.zIndex, outlineWidth: 2 / scale }}
                    onPointerDown={(e) => begin(e, chart, null)}
                  >
                    <LiveChart chart={chart} links={links[chart.key]} />
                    <div className="be-item-mask" />
                    {chart.site.isFilexd && (
                      <span className="be-pin" title={et.fixedBadge} style={{ transform: `scale(${1 / scale})` }}>
                        <PushpinFilled /> {et.fixedBadge}
                      </span>
                    )}
                    {selected &&
                      HANDLES.map((h) => (
                        <div
                          key={h}
                          className={`be-handle be-handle-${h}`}
                          data-handle={h}
                          style={{ width: 10 / scale, height: 10 / scale, margin: -5 / scale }}
                          onPointerDown={(e) => begin(e, chart, h)}
                        />
                      ))}
                  </div>
                );
              })}
              {live?.guides.map((g, i) => (
                <div
                  key={`${g.axis}${g.pos}${i}`}
                  className={`be-guide be-guide-${g.axis}`}
                  style={g.axis === 'x' ? { left: g.pos, borderLeftWidth: 1 / scale } : { top: g.pos, borderTopWidth: 1 / scale }}
                />
              ))}
            </div>
          </div>
        </div>
      </div>
      <div className="be-zoom">
        <span>{et.zoom}</span>
        <Select<Zoom>
          size="small"
          value={zoom}
          onChange={setZoom}
          options={ZOOMS}
          style={{ width: 90 }}
          popupMatchSelectWidth={false}
          data-testid="zoom-select"
        />
        <span className="be-zoom-value">{Math.round(scale * 100)}%</span>
      </div>
    </div>
  );
}
