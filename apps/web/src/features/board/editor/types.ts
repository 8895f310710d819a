import type { BoardType, Chart } from '@shutu/contracts';

/**
 * A chart being edited has the renderer's shape (`Chart`, id 0 until the board is saved), so
 * the editors draw drafts with the same ChartView the preview uses.
 */
export type ChartDraft = Chart;

/** The right-hand panel that configures the selected chart (features/board/editor/config). */
export interface ChartConfigPanelProps {
  chart: ChartDraft;
  /** Every chart of the board, the selected one included (link sources: filter controls and clickable charts). */
  charts: readonly ChartDraft[];
  boardType: BoardType;
  /** The dataset a chart without dataconfig starts from (`?ds=` of the editor's address). */
  defaultCubeId?: number | null;
  /** Every change, as a whole new chart (the editor records it for undo / redo). */
  onChange(next: ChartDraft): void;
}
