import { useMemo, type DragEvent } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout, type LayoutItem } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { QUICK_GRID, type ChartType } from '@shutu/contracts';
import { safeUrl } from '../../../shared/charts/index.ts';
import { LiveChart, useFirstLoadLinks } from './LiveChart.tsx';
import { et } from './messages.ts';
import { CHART_DRAG_TYPE } from './ScreenCanvas.tsx';
import type { EditorDoc, SitePatch } from './state.ts';

/** Gap between widgets and around the grid (px), as the preview draws them. */
export const QUICK_MARGIN: [number, number] = [10, 10];
const HANDLE_CLASS = 'be-quick-handle';

interface Props {
  doc: EditorDoc;
  selectedKey: string | null;
  onSelect(key: string | null): void;
  /** A drag or resize ended: one change. */
  onPlace(patches: SitePatch[]): void;
  /** The grid compacted the layout by itself (no history entry). */
  onSync(patches: SitePatch[]): void;
  onDropType(type: ChartType, at: { x: number; y: number }): void;
}

/** The places that differ from the charts' sites. */
function patchesOf(doc: EditorDoc, layout: Layout): SitePatch[] {
  const byKey = new Map(doc.charts.map((c) => [c.key, c.site]));
  return layout.flatMap((l: LayoutItem) => {
    const site = byKey.get(l.i);
    if (!site || (site.x === l.x && site.y === l.y && site.w === l.w && site.h === l.h)) return [];
    return [{ key: l.i, site: { x: l.x, y: l.y, w: l.w, h: l.h } }];
  });
}

/**
 * The quick board's 24-column grid (react-grid-layout): widgets are dragged by their
 * header (by their whole face when they have none) and resized from their edges. The grid
 * reports moves when they end, so one drag is one undo step.
 */
export function QuickCanvas({ doc, selectedKey, onSelect, onPlace, onSync, onDropType }: Props) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout = useMemo<Layout>(
    () => doc.charts.map((c) => ({ i: c.key, x: c.site.x, y: c.site.y, w: c.site.w, h: c.site.h, minW: 2, minH: 2 })),
    [doc.charts],
  );
  const links = useFirstLoadLinks(doc.charts);
  const bgImage = safeUrl(doc.content.bgImg);

  const drop = (e: DragEvent) => {
    const type = e.dataTransfer.getData(CHART_DRAG_TYPE) as ChartType;
    const box = containerRef.current?.getBoundingClientRect();
    if (!type || !box) return;
    e.preventDefault();
    const colWidth = (box.width - QUICK_MARGIN[0]) / QUICK_GRID.columns;
    onDropType(type, { x: Math.floor((e.clientX - box.left) / colWidth), y: Math.floor((e.clientY - box.top) / (QUICK_GRID.rowHeight + QUICK_MARGIN[1])) });
  };

  return (
    <div
      className="be-quick-scroller"
      style={{
        backgroundColor: doc.content.bgColor || undefined,
        ...(bgImage ? { backgroundImage: `url(${JSON.stringify(bgImage)})`, backgroundSize: 'cover' } : {}),
      }}
      onPointerDown={() => onSelect(null)}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(CHART_DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={drop}
    >
      <div ref={containerRef} className="be-quick-grid" data-testid="quick-board">
        {doc.charts.length === 0 && <div className="be-empty">{et.emptyCanvas}</div>}
        {mounted && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols: QUICK_GRID.columns, rowHeight: QUICK_GRID.rowHeight, margin: QUICK_MARGIN }}
            dragConfig={{ enabled: true, handle: `.${HANDLE_CLASS}` }}
            resizeConfig={{ enabled: true, handles: ['se', 'e', 's'] }}
            compactor={verticalCompactor}
            onDragStop={(next) => onPlace(patchesOf(doc, next))}
            onResizeStop={(next) => onPlace(patchesOf(doc, next))}
            onLayoutChange={(next) => {
              const patches = patchesOf(doc, next);
              if (patches.length > 0) onSync(patches);
            }}
          >
            {doc.charts.map((chart) => (
              <div
                key={chart.key}
                className={`be-quick-item${chart.key === selectedKey ? ' is-selected' : ''}`}
                data-testid="editor-chart"
                data-chart-key={chart.key}
                data-title={chart.title}
                onPointerDown={(e) => {
                  e.stopPropagation();
                  onSelect(chart.key);
                }}
              >
                <div className="be-quick-body">
                  <LiveChart chart={chart} links={links[chart.key]} />
                </div>
                <div className="be-item-mask">
                  <div className={HANDLE_CLASS} style={chart.site.isSimple ? { height: '100%' } : { height: QUICK_GRID.headerHeight }} />
                </div>
              </div>
            ))}
          </ReactGridLayout>
        )}
      </div>
    </div>
  );
}
