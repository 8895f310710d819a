import { HEATMAP_POINT_VALUE, type HeatmapPoint } from '@shutu/contracts';

/** Whole days as the server reads them. */
export const DAY = 'YYYY-MM-DD';

/**
 * The points as drawn on a layer `width` px wide: x is stored as a ratio of the page width the
 * click was made at, so it is placed at that ratio of the width shown now; y is page px. Each
 * point weighs the spec's point value (spec 1 §9).
 */
export function layerData(points: readonly HeatmapPoint[], width: number): [number, number, number][] {
  return points.map((p) => [Math.round(p.x * width), p.y, HEATMAP_POINT_VALUE]);
}

/** Width the page is shown at: a phone's for H5 pages, the space there is for the others. */
export function frameWidth(platformType: string | null | undefined, available: number): number {
  return platformType === 'H5' ? Math.min(390, available) : available;
}

/** Height of the framed page: the warehouse's page height, else below the lowest click (at least a screen). */
export function frameHeight(pageHeight: number | null | undefined, points: readonly HeatmapPoint[]): number {
  if (pageHeight && pageHeight > 0) return pageHeight;
  return Math.max(900, ...points.map((p) => p.y + 200));
}
