import type { ReactNode } from 'react';
import type { ChartLinkValue, GlobalParamValues } from '@shutu/contracts';

export interface ExportRecordPopoverProps {
  boardId: number;
  chartKey: string;
  /** The default file name (the chart's title). */
  chartTitle: string;
  /** The linked values applied to the chart right now: the export reads what the user sees. */
  links?: ChartLinkValue[];
  params?: GlobalParamValues;
  /** The trigger (the toolbar's 导出 button). */
  children: ReactNode;
}

/** Placeholder until the export-record popover lands. */
export function ExportRecordPopover({ children }: ExportRecordPopoverProps) {
  return <>{children}</>;
}
