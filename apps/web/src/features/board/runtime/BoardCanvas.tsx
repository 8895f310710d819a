import { startTransition, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import type { Board, Chart } from '@shutu/contracts';
import { previewScale, QUICK_GRID } from '@shutu/contracts/board-constants';
import { ChartScaleContext } from '../../../shared/charts/chart-scale.ts';
import { safeUrl } from '../../../shared/charts/model.ts';
import { chartBox, QUICK_GAP, quickGridArea } from './layout.ts';

/**
 * The two canvases of a read-only board. `renderChart` draws one chart (BoardChart with its
 * data); charts' boxes carry `anchorId(key)` for the 导航 anchors.
 */
interface CanvasProps {
  board: Board;
  charts: Chart[];
  renderChart: (chart: Chart) => ReactNode;
  /** The id of the scrolling element (返回顶部 scrolls it). */
  viewportId: string;
  /** The element id of a chart's box (导航 scrolls to it). */
  anchorId: (key: string) => string;
}

function backgroundImage(url: string | null | undefined): CSSProperties {
  const safe = safeUrl(url);
  return safe ? { backgroundImage: `url(${JSON.stringify(safe)})`, backgroundSize: '100% 100%', backgroundRepeat: 'no-repeat' } : {};
}

/** The viewport's content width (without its scrollbar), followed on resize; null until first measured. */
function useContentWidth(ref: RefObject<HTMLDivElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // In a transition: the charts render in slices between which a phone still answers (the
    // first measure is what brings them), not all at once inside the commit that measured.
    const measure = () => startTransition(() => setWidth(el.clientWidth));
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref]);
  return width;
}

/**
 * Screen boards: the design-size stage (content.width × height) scaled by previewScale(viewport
 * width, design width) with a CSS transform; the wrapper takes the scaled size so the viewport
 * scrolls exactly over the board. Fixed charts (site.isFilexd) are drawn in a second stage of
 * the same scale laid over the viewport that does not scroll: they keep their place on screen
 * (`position: fixed` itself would not work inside a transformed ancestor).
 */
export function ScreenCanvas({ board, charts, renderChart, viewportId, anchorId }: CanvasProps) {
  const viewportRef = useRef<HTMLDivElement | null>(null);
  const { width, height, bgColor, bgImg } = board.content;
  const contentWidth = useContentWidth(viewportRef);
  const scale = previewScale(contentWidth ?? 0, width);
  // The charts come once the viewport has been measured: drawn at scale 1 first, the whole board
  // was rendered twice in one task, and laid out once in between at the wrong size (the share
  // link's longest task on a phone, issue 26). The empty stage is cheap to lay out.
  const measured = contentWidth !== null;
  const stageStyle: CSSProperties = { width, height, transform: `scale(${scale})`, transformOrigin: '0 0', position: 'absolute', left: 0, top: 0 };
  const place = (chart: Chart): CSSProperties => {
    const box = chartBox(board, chart);
    return { position: 'absolute', left: box.x, top: box.y, width: box.w, height: box.h, zIndex: chart.site.zIndex };
  };
  const fixed = measured ? charts.filter((c) => c.site.isFilexd) : [];
  const scrolling = measured ? charts.filter((c) => !c.site.isFilexd) : [];
  return (
    <div className="board-screen" style={{ backgroundColor: bgColor || undefined }}>
      <div ref={viewportRef} id={viewportId} className="board-viewport" data-testid="board-viewport">
        <div className="board-stage-wrapper" data-testid="board-stage-wrapper" style={{ width: width * scale, height: height * scale }}>
          <div className="board-stage" data-testid="board-stage" data-scale={scale} style={{ ...stageStyle, ...backgroundImage(bgImg) }}>
            <ChartScaleContext.Provider value={scale}>
              {scrolling.map((chart) => (
                <div key={chart.key} id={anchorId(chart.key)} className="board-item" data-testid={`board-item-${chart.key}`} style={place(chart)}>
                  {renderChart(chart)}
                </div>
              ))}
            </ChartScaleContext.Provider>
          </div>
        </div>
      </div>
      {fixed.length > 0 && (
        <div className="board-stage board-fixed-layer" data-testid="board-fixed-layer" style={stageStyle}>
          <ChartScaleContext.Provider value={scale}>
            {fixed.map((chart) => (
              <div key={chart.key} className="board-item board-item-fixed" data-testid={`board-item-${chart.key}`} style={place(chart)}>
                {renderChart(chart)}
              </div>
            ))}
          </ChartScaleContext.Provider>
        </div>
      )}
    </div>
  );
}

/**
 * Quick boards: a CSS grid of 24 columns with 48 px rows and react-grid-layout's 10 px margins
 * (the quick editor's geometry), so a chart spans exactly what it spanned in the editor. Not
 * draggable or resizable.
 */
export function QuickCanvas({ board, charts, renderChart, viewportId, anchorId }: CanvasProps) {
  const { bgColor, bgImg } = board.content;
  return (
    <div
      id={viewportId}
      className="board-viewport board-quick"
      data-testid="board-viewport"
      style={{ backgroundColor: bgColor || undefined, ...backgroundImage(bgImg) }}
    >
      <div
        className="board-quick-grid"
        data-testid="board-quick-grid"
        style={{
          gridTemplateColumns: `repeat(${QUICK_GRID.columns}, minmax(0, 1fr))`,
          gridAutoRows: QUICK_GRID.rowHeight,
          gap: QUICK_GAP,
          padding: QUICK_GAP,
        }}
      >
        {charts.map((chart) => (
          <div
            key={chart.key}
            id={anchorId(chart.key)}
            className="board-item"
            data-testid={`board-item-${chart.key}`}
            style={quickGridArea(chartBox(board, chart))}
          >
            {renderChart(chart)}
          </div>
        ))}
      </div>
    </div>
  );
}
