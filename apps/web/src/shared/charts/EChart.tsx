import { useContext, useEffect, useRef, type CSSProperties } from 'react';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { ChartScaleContext, chartPixelRatio } from './chart-scale.ts';
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
 * An ECharts instance in a div: init on mount, setOption (notMerge) on change, resize with the
 * box, dispose on unmount. The first picture is drawn without animation: the page is ready (and
 * 'finished' fires) at once instead of after 300 ms of frames per chart on a busy main thread;
 * later changes (linkage, new data) animate. Inside a scaled screen board the canvas is sized for
 * the scale it is shown at (chart-scale.ts).
 */
export function EChart({ option, onRendered, onClick, style, className }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  const callbacks = useRef({ onRendered, onClick });
  const rendered = useRef(false);
  const drawn = useRef(false);
  const screenRatio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const ratio = chartPixelRatio(screenRatio, useContext(ChartScaleContext));

  useEffect(() => {
    callbacks.current = { onRendered, onClick };
  });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'canvas', ...(ratio !== screenRatio ? { devicePixelRatio: ratio } : {}) });
    chartRef.current = chart;
    chart.on('finished', () => {
      if (rendered.current) return;
      rendered.current = true;
      callbacks.current.onRendered?.();
    });
    chart.on('click', (params) => {
      const p = params as { dataIndex?: number; seriesIndex?: number; name?: string };
      if (typeof p.dataIndex === 'number') callbacks.current.onClick?.({ dataIndex: p.dataIndex, seriesIndex: p.seriesIndex, name: p.name });
    });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
    // The pixel ratio is fixed at init: another one (the window resized a scaled board) needs a new canvas.
  }, [ratio, screenRatio]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setOption(drawn.current ? option : { ...option, animation: false }, { notMerge: true });
    drawn.current = true;
  }, [option, ratio]);

  return <div ref={ref} className={className} style={{ width: '100%', height: '100%', minHeight: 0, ...style }} />;
}
