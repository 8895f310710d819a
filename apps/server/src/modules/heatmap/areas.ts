import { HEATMAP_AREA_COLUMNS, HEATMAP_AREA_HEIGHT, HEATMAP_TOP_AREAS, type HeatmapArea, type HeatmapPoint } from '@shutu/contracts';

/**
 * A click's x as a ratio of the width of the page it was made on: the page lays out by its
 * width, so x / width lands on the same element at any other width (y is page pixels and does
 * not depend on the width for the demo site's fluid layout). A width of 0 or less is no page
 * and the click is dropped.
 */
export function normalisePoint(x: number, y: number, width: number): HeatmapPoint | null {
  if (!(width > 0) || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  const ratio = Math.min(1, Math.max(0, x / width));
  return { x: Math.round(ratio * 10_000) / 10_000, y: Math.max(0, Math.round(y)), width };
}

/**
 * The busiest areas: the page cut into cells of 1/20 of its width by 100 px, the ten cells with
 * the most clicks, each as its centre (x a ratio, y in px) — ties by position, top to bottom.
 */
export function topAreas(points: readonly HeatmapPoint[], top = HEATMAP_TOP_AREAS): HeatmapArea[] {
  const cells = new Map<string, { col: number; row: number; count: number }>();
  for (const p of points) {
    const col = Math.min(HEATMAP_AREA_COLUMNS - 1, Math.floor(p.x * HEATMAP_AREA_COLUMNS));
    const row = Math.floor(p.y / HEATMAP_AREA_HEIGHT);
    const key = `${col}:${row}`;
    const cell = cells.get(key);
    if (cell) cell.count += 1;
    else cells.set(key, { col, row, count: 1 });
  }
  return [...cells.values()]
    .sort((a, b) => b.count - a.count || a.row - b.row || a.col - b.col)
    .slice(0, top)
    .map((c) => ({ x: (c.col + 0.5) / HEATMAP_AREA_COLUMNS, y: (c.row + 0.5) * HEATMAP_AREA_HEIGHT, count: c.count }));
}
