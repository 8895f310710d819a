import type { Board, Chart } from '@shutu/contracts';
import { QUICK_GRID } from '@shutu/contracts/board-constants';
import { drawnCharts } from '@shutu/contracts/board-linkage';

export { drawnCharts };

/** Where the read-only board draws its charts (pure, tested through BoardView). */

/** react-grid-layout's default margin, which the quick editor uses: the preview matches it. */
export const QUICK_GAP = 10;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function dialogCharts(board: Pick<Board, 'charts'>): Chart[] {
  return board.charts.filter((c) => c.site.isDiglog);
}

/**
 * A chart's box: quick boards read the layout entry (grid units; the site mirrors it), screen
 * boards the site (design pixels).
 */
export function chartBox(board: Pick<Board, 'content'>, chart: Chart): Box {
  const entry = board.content.type === 'quick' ? board.content.layout.find((l) => l.i === chart.key) : undefined;
  const { x, y, w, h } = entry ?? chart.site;
  return { x, y, w, h };
}

/** CSS grid placement of a quick-board chart (24 columns; a chart never spills past the last one). */
export function quickGridArea(box: Box): { gridColumn: string; gridRow: string } {
  const x = Math.min(Math.max(0, Math.round(box.x)), QUICK_GRID.columns - 1);
  const w = Math.max(1, Math.min(Math.round(box.w), QUICK_GRID.columns - x));
  const y = Math.max(0, Math.round(box.y));
  const h = Math.max(1, Math.round(box.h));
  return { gridColumn: `${x + 1} / span ${w}`, gridRow: `${y + 1} / span ${h}` };
}

/** Anchored charts (drawn in place, not fixed), top to bottom then left to right, for the 导航 popover. */
export function anchoredCharts(board: Pick<Board, 'charts' | 'content'>): { key: string; label: string }[] {
  return drawnCharts(board)
    .filter((c) => !!c.site.anchor?.trim() && !(board.content.type === 'screen' && c.site.isFilexd))
    .map((c) => ({ chart: c, box: chartBox(board, c) }))
    .sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
    .map(({ chart }) => ({ key: chart.key, label: chart.site.anchor!.trim() }));
}
