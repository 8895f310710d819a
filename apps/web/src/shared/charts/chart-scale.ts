import { createContext } from 'react';

/**
 * The CSS scale a chart is drawn at (a screen board's stage is drawn at its design size and
 * scaled to the window with a transform). ECharts sizes its canvas by the element's unscaled
 * size × devicePixelRatio, so a 920 px chart shown at 184 px on a phone (scale 0.2, DPR 3)
 * would paint 9 times the pixels anyone sees; EChart lowers its pixel ratio by this scale.
 */
export const ChartScaleContext = createContext(1);

/**
 * The pixel ratio of a chart's canvas at `scale`: the screen's ratio times the scale, never
 * below 1 (pinch zoom on a phone still reads) and never above the screen's.
 */
export function chartPixelRatio(screenRatio: number, scale: number): number {
  if (!(scale > 0) || scale >= 1) return screenRatio;
  return Math.min(screenRatio, Math.max(1, screenRatio * scale));
}
