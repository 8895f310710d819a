/** The read-only board: the preview pages and the slideshow draw boards with it. */
export { BoardView, type BoardControls, type BoardViewProps } from './BoardView.tsx';
export { BoardChart, chartJsonPath, type BoardChartProps } from './BoardChart.tsx';
export { AnchorNav } from './AnchorNav.tsx';
export { setBoardState, useBoardStateAttribute } from './board-state.ts';
export * from './layout.ts';
export { previewMessages } from './messages.ts';
export { ClearLinkageButton, DialogChartButtons } from './ControlButtons.tsx';
