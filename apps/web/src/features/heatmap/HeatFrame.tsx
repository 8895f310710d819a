import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import simpleheat from 'simpleheat';
import { HEATMAP_MAX, HEATMAP_RADIUS, type HeatmapPoint, type HeatmapTitle } from '@shutu/contracts';
import { frameHeight, frameWidth, layerData } from './heat-layer.ts';

/** simpleheat's radius is a core plus a blur; together they make the spec's radius 40. */
const CORE = 25;
const BLUR = HEATMAP_RADIUS - CORE;

/**
 * The website in an iframe with the heat layer over it (spec 1 §2.8). The page is framed at its
 * full height inside a scrolling box, so the layer scrolls with it by being in the same box, and
 * a change of the box's width (window, side menu) re-places every point at its ratio of the new
 * width. The layer also keeps the analyst's clicks off the page: they would navigate it and
 * count as the site's own clicks.
 */
export function HeatFrame({ page, points }: { page: HeatmapTitle; points: readonly HeatmapPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLCanvasElement>(null);
  const [available, setAvailable] = useState(0);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setAvailable(element.clientWidth);
    const observer = new ResizeObserver(() => setAvailable(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const width = frameWidth(page.platformType, available);
  const height = frameHeight(page.pageHeight, points);

  useEffect(() => {
    const canvas = layer.current;
    if (!canvas || width <= 0) return;
    canvas.width = width;
    canvas.height = height;
    simpleheat(canvas).data(layerData(points, width)).max(HEATMAP_MAX).radius(CORE, BLUR).draw();
  }, [points, width, height]);

  return (
    <div className="heatmap-box" ref={box} data-testid="heatmap-box">
      {width > 0 && (
        <div className="heatmap-stage" style={{ width, height }}>
          <iframe className="heatmap-frame" src={page.viewUrl} title={page.title} width={width} height={height} scrolling="no" />
          <canvas className="heatmap-layer" ref={layer} data-testid="heatmap-layer" data-points={points.length} style={{ width, height }} />
        </div>
      )}
    </div>
  );
}
