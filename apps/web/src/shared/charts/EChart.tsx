import { useEffect, useRef, type CSSProperties } from 'react';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
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

/** An ECharts instance in a div: init on mount, setOption (notMerge) on change, resize with the box, dispose on unmount. */
export function EChart({ option, onRendered, onClick, style, className }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  const callbacks = useRef({ onRendered, onClick });
  const rendered = useRef(false);

  useEffect(() => {
    callbacks.current = { onRendered, onClick };
  });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'canvas' });
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
  }, []);

  useEffect(() => {
    chartRef.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={ref} className={className} style={{ width: '100%', height: '100%', minHeight: 0, ...style }} />;
}
