import { useContext, useEffect, useRef, useState, type CSSProperties } from 'react';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { ChartScaleContext, chartPixelRatio } from './chart-scale.ts';
import { queueFirstDraw } from './draw-queue.ts';
import { echarts } from './echarts-setup.ts';

export interface EChartClick {
  dataIndex: number;
  seriesIndex?: number;
  name?: string;
}

export interface EChartProps {
  option: EChartsCoreOption;
  /** Called once, after the first complete paint (the 'finished' event). */
  onRendered?: () => void;
  onClick?: (params: EChartClick) => void;
  style?: CSSProperties;
  className?: string;
}

/**
 * An ECharts instance in a div: init and the first picture in a task of their own (draw-queue.ts),
 * setOption (notMerge) on change, resize with the box, dispose on unmount. The first picture is
 * drawn without animation: the page is ready (and
 * 'finished' fires) at once instead of after 300 ms of frames per chart on a busy main thread;
 * later changes (linkage, new data) animate. Inside a scaled screen board the canvas is sized for
 * the scale it is shown at (chart-scale.ts).
 */
export function EChart({ option, onRendered, onClick, style, className }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  const callbacks = useRef({ onRendered, onClick });
  /** The option to draw: the queued first picture takes the latest. */
  const latest = useRef(option);
  const rendered = useRef(false);
  const drawn = useRef(false);
  const screenRatio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const ratio = chartPixelRatio(screenRatio, useContext(ChartScaleContext));
  // A first picture that threw (in its own task, outside React): thrown here for the chart's error boundary.
  const [failure, setFailure] = useState<unknown>(null);
  if (failure) throw failure;

  useEffect(() => {
    callbacks.current = { onRendered, onClick };
    latest.current = option;
  });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let observer: ResizeObserver | null = null;
    // The instance and its first picture in a task of their own (draw-queue.ts), in the viewport's order.
    const cancel = queueFirstDraw(el, () => {
      try {
        draw(el);
      } catch (error) {
        setFailure(error instanceof Error ? error : new Error(String(error)));
      }
    });
    function draw(target: HTMLDivElement) {
      const instance = echarts.init(target, undefined, { renderer: 'canvas', ...(ratio !== screenRatio ? { devicePixelRatio: ratio } : {}) });
      chartRef.current = instance;
      instance.on('finished', () => {
        if (rendered.current) return;
        rendered.current = true;
        callbacks.current.onRendered?.();
      });
      instance.on('click', (params) => {
        const p = params as { dataIndex?: number; seriesIndex?: number; name?: string };
        if (typeof p.dataIndex === 'number') callbacks.current.onClick?.({ dataIndex: p.dataIndex, seriesIndex: p.seriesIndex, name: p.name });
      });
      // An observer calls back once as it starts, with the size the chart was just drawn at: a
      // resize then laid out and drew every chart a second time (issue 26, the share link's trace).
      observer =
        typeof ResizeObserver === 'undefined'
          ? null
          : new ResizeObserver(() => {
              if (target.clientWidth !== instance.getWidth() || target.clientHeight !== instance.getHeight()) instance.resize();
            });
      observer?.observe(target);
      instance.setOption({ ...latest.current, animation: false }, { notMerge: true });
      drawn.current = true;
    }
    return () => {
      cancel();
      observer?.disconnect();
      chartRef.current?.dispose();
      chartRef.current = null;
      drawn.current = false;
    };
    // The pixel ratio is fixed at init: another one (the window resized a scaled board) needs a new canvas.
  }, [ratio, screenRatio]);

  useEffect(() => {
    const chart = chartRef.current;
    // Before the first picture: the queued draw takes this option.
    if (!chart || !drawn.current) return;
    chart.setOption(option, { notMerge: true });
  }, [option, ratio]);

  return <div ref={ref} className={className} style={{ width: '100%', height: '100%', minHeight: 0, ...style }} />;
}
