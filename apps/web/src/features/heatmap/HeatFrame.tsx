import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert } from 'antd';
import simpleheat from 'simpleheat';
import { HEATMAP_MAX, HEATMAP_RADIUS, type HeatmapFrame, type HeatmapPoint, type HeatmapTitle } from '@shutu/contracts';
import { frameHeight, frameWidth, layerData } from './heat-layer.ts';
import { ShotImage } from './ShotImage.tsx';

/** simpleheat's radius is a core plus a blur; together they make the spec's radius 40. */
const CORE = 25;
const BLUR = HEATMAP_RADIUS - CORE;

/**
 * The website in an iframe with the heat layer over it (spec 1 §2.8), or, when the site refuses
 * framing (the server's check, `frame`), the server's screenshot of it at the same width with the
 * same layer. The page is shown at its full height inside a scrolling box, so the layer scrolls
 * with it by being in the same box, and a change of the box's width (window, side menu) re-places
 * every point at its ratio of the new width. The layer also keeps the analyst's clicks off the
 * page: they would navigate it and count as the site's own clicks.
 */
export function HeatFrame({ page, points, frame }: { page: HeatmapTitle; points: readonly HeatmapPoint[]; frame: HeatmapFrame | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLCanvasElement>(null);
  const [available, setAvailable] = useState(0);
  const [shotHeight, setShotHeight] = useState<number | null>(null);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setAvailable(element.clientWidth);
    const observer = new ResizeObserver(() => setAvailable(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const shot = frame?.mode === 'screenshot';
  const width = frameWidth(page.platformType, available);
  const height = shot && shotHeight ? shotHeight : frameHeight(page.pageHeight, points);

  useEffect(() => {
    const canvas = layer.current;
    if (!canvas || width <= 0) return;
    canvas.width = width;
    canvas.height = height;
    simpleheat(canvas).data(layerData(points, width)).max(HEATMAP_MAX).radius(CORE, BLUR).draw();
    // `frame` too: the canvas mounts only once the frame check has answered, often after the points.
  }, [points, width, height, frame]);

  return (
    <>
      {shot && frame.reason && <Alert className="heatmap-shot-reason" type="info" showIcon message={frame.reason} data-testid="heatmap-shot-reason" />}
      <div className="heatmap-box" ref={box} data-testid="heatmap-box">
        {width > 0 && frame && (
          <div className="heatmap-stage" style={{ width, height }}>
            {shot ? (
              <ShotImage title={page.title} width={width} onHeight={setShotHeight} />
            ) : (
              <iframe className="heatmap-frame" src={page.viewUrl} title={page.title} width={width} height={height} scrolling="no" />
            )}
            <canvas className="heatmap-layer" ref={layer} data-testid="heatmap-layer" data-points={points.length} style={{ width, height }} />
          </div>
        )}
      </div>
    </>
  );
}
