import { z } from 'zod';
import { chartDataResultSchema, chartLinkValueSchema, MAX_CHARTS_PER_BOARD } from './board.ts';
import { globalParamValuesSchema } from './query.ts';

/**
 * The data of several saved charts of one board in one call (issue 26): the board's page asks
 * for the charts it draws at once, and the server reads the charts that share a dataset, its
 * rows and the viewer's permission filters in one statement (modules/board/chart-batch.ts).
 * Each chart is what POST chart-data with `boardId` + `chartKey` and the same fields answers.
 */
export const chartDataBatchChartSchema = z.object({
  chartKey: z.string().max(64),
  mode: z.enum(['aggregate', 'detail', 'values']).default('aggregate'),
  links: z.array(chartLinkValueSchema).max(50).default([]),
  current: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(1000).nullish(),
});
export type ChartDataBatchChart = z.output<typeof chartDataBatchChartSchema>;
export type ChartDataBatchChartInput = z.input<typeof chartDataBatchChartSchema>;
/**
 * Without `charts`: the board's first data, the charts its page asks for when it opens
 * (board-linkage.ts `boardFirstRequests`, the page's own list), each line carrying the chart
 * request it answers. The phone viewer's first script asks so before the app has loaded.
 */
export const chartDataBatchRequestSchema = z.object({
  boardId: z.number().int().positive(),
  charts: z.array(chartDataBatchChartSchema).min(1).max(MAX_CHARTS_PER_BOARD).optional(),
  params: globalParamValuesSchema.default({}),
  /**
   * false (the default, what every page asks): each chart read by its own statement, as its own
   * call would, but for the exact distinct counts of one column and the time axes of one column,
   * which share one statement each; the call still saves the page its twenty requests and can be
   * sent by its first script. true: the charts that share a dataset and its filters read by one
   * GROUPING SETS statement — less engine CPU in all, but slower to the last chart at 1M and 10M
   * orders (docs/board-speed.md), so no page asks for it.
   */
  grouped: z.boolean().default(false),
});
export type ChartDataBatchRequest = z.input<typeof chartDataBatchRequestSchema>;
export type ChartDataBatchRequestParsed = z.output<typeof chartDataBatchRequestSchema>;

/**
 * One chart's answer, in the order of the request: its data, or the failure its own
 * chart-data call would have answered (status and Chinese message) — one chart's failure does
 * not fail the others. The board itself refused (403 没有此大屏权限) fails the whole call.
 */
export const chartDataBatchItemSchema = z.object({
  chartKey: z.string(),
  data: chartDataResultSchema.nullable(),
  error: z.object({ status: z.number().int(), msg: z.string() }).nullable(),
  /** The chart request answered, when the server chose the charts (a request without `charts`). */
  request: chartDataBatchChartSchema.optional(),
});
export type ChartDataBatchItem = z.infer<typeof chartDataBatchItemSchema>;
export const chartDataBatchResultSchema = z.array(chartDataBatchItemSchema);

export const chartDataBatchLineSchema = chartDataBatchItemSchema.extend({ index: z.number().int().min(0) });
export type ChartDataBatchLine = z.infer<typeof chartDataBatchLineSchema>;
