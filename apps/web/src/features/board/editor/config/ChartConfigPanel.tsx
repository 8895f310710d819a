import type { ChartConfigPanelProps } from '../types.ts';

/** Placeholder until the configuration panel lands. */
export function ChartConfigPanel(_props: ChartConfigPanelProps) {
  return null;
}
