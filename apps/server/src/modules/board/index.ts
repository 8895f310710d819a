/** The public face of the board module: other modules import only what is exported here (the boundary check enforces it). */
export { mayViewBoard, requireViewableBoard } from './access.ts';
export { openSavedChart } from './chart-data.ts';
export { DEMO_NAMES } from './demo-content.ts';
export { planChartRead, type ChartQueryInput } from './chart-query.ts';
export { chartTotals } from './chart-totals.ts';
export { assertBoardsShowNoHiddenColumns } from './hidden-columns.ts';
export { parseContent } from './model.ts';
export { findBoard, findChart } from './repo.ts';
export { QUICK_BOARD_VIEWPORT } from './thumbnail.ts';
export { issueViewToken } from './view-token.ts';
