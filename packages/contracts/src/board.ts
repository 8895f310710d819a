import { z } from 'zod';
import { optionalText, requiredText } from './common.ts';
import { pageQuerySchema } from './envelope.ts';
import { AGGREGATION_TYPES, TIME_UNITS, FILTER_FUNCTIONS, MAX_FILTER_VALUES } from './cube.ts';
import { datasetFilterTreeSchema, filterTreeOutSchema } from './dataset.ts';
import { cubeCellSchema, cubePreviewResultSchema, globalParamValuesSchema } from './query.ts';
import {
  BOARD_CATEGORY_NAME_MAX_LENGTH,
  BOARD_KINDS,
  BOARD_PAGE_SIZE,
  BOARD_TITLE_MAX_LENGTH,
  BOARD_TYPES,
  boardMessages,
  CHART_MAX_ROWS,
  CHART_TYPES,
  DEFAULT_SCREEN_SIZE,
  MAX_CHARTS_PER_BOARD,
} from './board-constants.ts';

/**
 * Boards: big-screen dashboards ("visual") and self-service reports ("report") share one
 * model and one renderer (spec 1 §2.1, §2.4, §2.5, §3 "Report", "Report category",
 * "Dashboard", "Chart", §4–§7 "Reports", "Report authorisation", §9).
 *
 * A board holds its `content` (canvas settings and the layout of its charts) and its charts.
 * A chart reads one dataset through the query engine, on the server, with the caller's
 * permission filters (`POST chart-data`). Filter controls drive other charts through
 * `ext.filterList` on the driven chart.
 */

export * from './board-constants.ts';

// ---------------------------------------------------------------------------------------
// Categories (two levels; parent 0 is top level)

export const boardCategorySchema = z.object({
  id: z.number(),
  kind: z.enum(BOARD_KINDS),
  categoryKey: z.string().nullable(),
  categoryValue: z.string(),
  parentId: z.number(),
  sortNum: z.number(),
  createUserId: z.number().nullable(),
});
export type BoardCategory = z.infer<typeof boardCategorySchema>;

export const boardKindQuerySchema = z.object({ kind: z.enum(BOARD_KINDS).default('visual') });

export const boardCategorySaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  kind: z.enum(BOARD_KINDS).default('visual'),
  categoryKey: optionalText(50),
  categoryValue: requiredText(boardMessages.categoryNameRequired, BOARD_CATEGORY_NAME_MAX_LENGTH),
  parentId: z.number().int().min(0).default(0),
  sortNum: z.number().int().min(0).max(100000).nullish(),
});
export type BoardCategorySave = z.input<typeof boardCategorySaveSchema>;

// ---------------------------------------------------------------------------------------
// Charts

const fieldId = z.number().int().positive();

/** A dimension of a chart (rowParamList: rows / x axis; columnParamList: pivot columns / series). */
export const chartDimensionSchema = z.object({
  fieldId,
  /** Shown instead of the field's title. */
  title: z.string().max(100).nullish(),
  /** Date truncation of a DATETIME field. */
  granularity: z.enum(TIME_UNITS).nullish(),
});
export type ChartDimension = z.infer<typeof chartDimensionSchema>;

/** An indicator of a chart (indexParamList). */
export const chartMeasureSchema = z.object({
  fieldId,
  title: z.string().max(100).nullish(),
  /** Default: the field's own default aggregation. Ignored for computed fields that aggregate. */
  aggregation: z.enum(AGGREGATION_TYPES).nullish(),
});
export type ChartMeasure = z.infer<typeof chartMeasureSchema>;

export const chartSortSchema = z.object({
  fieldId,
  aggregation: z.enum(AGGREGATION_TYPES).nullish(),
  direction: z.enum(['ASC', 'DESC']).default('ASC'),
});

/** What a chart reads (`dataconfig`). */
export const chartDataConfigSchema = z.object({
  cubeId: fieldId,
  rowParamList: z.array(chartDimensionSchema).max(20).default([]),
  columnParamList: z.array(chartDimensionSchema).max(10).default([]),
  indexParamList: z.array(chartMeasureSchema).max(50).default([]),
  /** The chart's own filter (rows before grouping), a dataset filter tree without parameters. */
  filter: datasetFilterTreeSchema.nullish(),
  sortList: z.array(chartSortSchema).max(10).default([]),
  /** Most rows (aggregated charts); null: CHART_MAX_ROWS. */
  limit: z.number().int().min(1).max(CHART_MAX_ROWS).nullish(),
  /** Detail tables: rows per page. */
  pageSize: z.number().int().min(1).max(1000).nullish(),
});
export type ChartDataConfig = z.input<typeof chartDataConfigSchema>;
export type ChartDataConfigParsed = z.output<typeof chartDataConfigSchema>;

/** Where a chart sits and how its frame looks (spec 1 §3 "Chart" site). Screen boards use pixels; quick boards grid units. */
export const chartSiteSchema = z.object({
  x: z.number().min(0).max(100000).default(0),
  y: z.number().min(0).max(100000).default(0),
  w: z.number().min(1).max(100000).default(8),
  h: z.number().min(1).max(100000).default(6),
  /** Listed in the preview's 导航 anchors popover under this name. */
  anchor: z.string().max(50).nullish(),
  /** Opened in a dialog (full) from the preview instead of being drawn in place. */
  isDiglog: z.boolean().default(false),
  /** Fixed: does not scroll with the board (screen mode). */
  isFilexd: z.boolean().default(false),
  /** Without its header. */
  isSimple: z.boolean().default(false),
  /** Layer order (screen mode): higher is in front. */
  zIndex: z.number().int().min(0).max(100000).default(0),
  titleFontColor: z.string().max(50).nullish(),
  titleFontSize: z.number().min(8).max(96).nullish(),
  fontWeight: z.enum(['normal', 'bold']).nullish(),
  bgColor: z.string().max(50).nullish(),
  bgBackgroundSrc: z.string().max(2000).nullish(),
});
export type ChartSite = z.input<typeof chartSiteSchema>;

/**
 * A link on the DRIVEN chart (ext.filterList): `linkFrom` is the driving chart's key (a
 * filter control, or a chart whose clicks filter), `linkKey` this chart's field that the
 * driver's value filters, `linkSet` the link is configured, `linkFlag` it is on (清除联动
 * turns every link off until the next selection), `beginFlag` the driver's default value
 * applies at first load.
 */
export const chartLinkSchema = z.object({
  linkFrom: z.string().min(1).max(64),
  linkKey: fieldId,
  linkSet: z.boolean().default(true),
  linkFlag: z.boolean().default(true),
  beginFlag: z.boolean().default(false),
});
export type ChartLink = z.infer<typeof chartLinkSchema>;

export const chartExtSchema = z.object({
  filterList: z.array(chartLinkSchema).max(50).default([]),
  /** Filter controls: the default value (select: values; date: [from, to] as yyyy-MM-dd). */
  defaultValue: z
    .array(z.union([z.string().max(200), z.number()]))
    .max(1000)
    .nullish(),
  /** Text chart: its text; image chart: its URL. */
  text: z.string().max(20000).nullish(),
  imageUrl: z.string().max(2000).nullish(),
  /**
   * Filter controls (docs/board-preview.md "Board-wide filters"): the filter applies by default
   * to every data chart of the board on its dataset (its own field) and on the datasets of
   * `autoLinkFields`, without any link on those charts. Absent (boards saved before): on,
   * unless some chart already links to this filter by hand.
   */
  autoLink: z.boolean().nullish(),
  /** Filter controls: keys of the charts the default does not apply to (the per-chart opt-out). */
  autoLinkExclude: z.array(z.string().max(64)).max(MAX_CHARTS_PER_BOARD).nullish(),
  /** Filter controls: the mapped field of another dataset, by dataset id, that the filter's values filter. */
  autoLinkFields: z.record(z.string().regex(/^\d+$/), fieldId).nullish(),
});

/** Display options (title, colours, fonts, legend, labels …): kept as sent, read by the renderer. */
export const chartOptionSchema = z.record(z.string(), z.unknown());

export const chartSaveSchema = z.object({
  /** Unique within the board; layout entries reference it as `i`. */
  key: z.string().trim().min(1).max(64),
  name: z.enum(CHART_TYPES),
  title: z.string().trim().max(100).default(''),
  dataconfig: chartDataConfigSchema.nullish(),
  option: chartOptionSchema.default({}),
  modalSet: z.record(z.string(), z.unknown()).nullish(),
  site: chartSiteSchema.prefault({}),
  ext: chartExtSchema.default({ filterList: [] }),
});
export type ChartSave = z.input<typeof chartSaveSchema>;
export type ChartSaveParsed = z.output<typeof chartSaveSchema>;

export const chartSchema = z.object({
  id: z.number(),
  key: z.string(),
  name: z.enum(CHART_TYPES),
  title: z.string(),
  dataconfig: z
    .object({
      cubeId: z.number(),
      rowParamList: z.array(z.object({ fieldId: z.number(), title: z.string().nullish(), granularity: z.enum(TIME_UNITS).nullish() })),
      columnParamList: z.array(z.object({ fieldId: z.number(), title: z.string().nullish(), granularity: z.enum(TIME_UNITS).nullish() })),
      indexParamList: z.array(z.object({ fieldId: z.number(), title: z.string().nullish(), aggregation: z.enum(AGGREGATION_TYPES).nullish() })),
      filter: filterTreeOutSchema.nullish(),
      sortList: z.array(z.object({ fieldId: z.number(), aggregation: z.enum(AGGREGATION_TYPES).nullish(), direction: z.enum(['ASC', 'DESC']) })),
      limit: z.number().nullish(),
      pageSize: z.number().nullish(),
    })
    .nullable(),
  option: z.record(z.string(), z.unknown()),
  modalSet: z.record(z.string(), z.unknown()).nullable(),
  site: chartSiteSchema.required().partial({ anchor: true, titleFontColor: true, titleFontSize: true, fontWeight: true, bgColor: true, bgBackgroundSrc: true }),
  ext: z.object({
    filterList: z.array(chartLinkSchema),
    defaultValue: z.array(z.union([z.string(), z.number()])).nullish(),
    text: z.string().nullish(),
    imageUrl: z.string().nullish(),
    autoLink: z.boolean().nullish(),
    autoLinkExclude: z.array(z.string()).nullish(),
    autoLinkFields: z.record(z.string(), z.number()).nullish(),
  }),
});
export type Chart = z.infer<typeof chartSchema>;

// ---------------------------------------------------------------------------------------
// Boards

/** A layout entry: `i` is the chart key (quick boards: grid units; screen boards mirror the site). */
export const layoutItemSchema = z.object({
  i: z.string().min(1).max(64),
  x: z.number().min(0).max(100000),
  y: z.number().min(0).max(100000),
  w: z.number().min(1).max(100000),
  h: z.number().min(1).max(100000),
});
export type LayoutItem = z.infer<typeof layoutItemSchema>;

/** The board's `content` (spec 1 §3 "Dashboard"). */
export const boardContentSchema = z.object({
  type: z.enum(BOARD_TYPES).default('screen'),
  layout: z.array(layoutItemSchema).max(MAX_CHARTS_PER_BOARD).default([]),
  width: z.number().int().min(320).max(10000).default(DEFAULT_SCREEN_SIZE.width),
  height: z.number().int().min(200).max(20000).default(DEFAULT_SCREEN_SIZE.height),
  bgColor: z.string().max(50).nullish(),
  bgImg: z.string().max(2000).nullish(),
  /** Charts can be dragged in the preview (quick boards: never). */
  editSwitch: z.boolean().default(false),
  anchorTextSize: z.number().min(8).max(48).nullish(),
  anchorTextColor: z.string().max(50).nullish(),
  anchorBgColor: z.string().max(50).nullish(),
  anchorIconColor: z.string().max(50).nullish(),
});
export type BoardContent = z.input<typeof boardContentSchema>;
export type BoardContentParsed = z.output<typeof boardContentSchema>;

export const boardListItemSchema = z.object({
  id: z.number(),
  kind: z.enum(BOARD_KINDS),
  title: z.string(),
  categoryId: z.number(),
  categoryName: z.string(),
  /** The thumbnail: a URL under /api/board/thumbnails/, or null until rendered. */
  backgroundUrl: z.string().nullable(),
  /** screen or quick (from content.type), for the type ribbon. */
  type: z.enum(BOARD_TYPES),
  publicStatus: z.number(),
  sortNum: z.number(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  /** The caller may change and delete it: administrators and its creator. */
  editable: z.boolean(),
});
export type BoardListItem = z.infer<typeof boardListItemSchema>;

export const boardSchema = boardListItemSchema.extend({
  content: boardContentSchema.required({ type: true, layout: true, width: true, height: true, editSwitch: true }),
  charts: z.array(chartSchema),
});
export type Board = z.infer<typeof boardSchema>;

/** List: kind, category (its sub-categories included; -1 or absent: all), title contains; 50 per page; ordered by sortNum then newest. */
export const boardListQuerySchema = pageQuerySchema.extend({
  kind: z.enum(BOARD_KINDS).default('visual'),
  categoryId: z.coerce.number().int().min(-1).optional(),
  title: z.string().trim().max(BOARD_TITLE_MAX_LENGTH).optional(),
  size: z.coerce.number().int().min(1).max(10000).default(BOARD_PAGE_SIZE),
});
export type BoardListQuery = z.input<typeof boardListQuerySchema>;

/** Save a board from an editor: with id an update (its charts are replaced by `charts`). */
export const boardSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  kind: z.enum(BOARD_KINDS).default('visual'),
  title: requiredText(boardMessages.titleRequired, BOARD_TITLE_MAX_LENGTH),
  categoryId: z.number({ error: boardMessages.categoryNotFound }).int().positive(boardMessages.categoryNotFound),
  content: boardContentSchema.prefault({}),
  charts: z.array(chartSaveSchema).max(MAX_CHARTS_PER_BOARD).default([]),
  /** Add only: 1 public (default), 0 restricted to dataPermIdList (the caller's own groups unless administrator). */
  publicStatus: z.union([z.literal(0), z.literal(1)]).nullish(),
  dataPermIdList: z.array(z.number().int().positive()).max(1000).default([]),
});
export type BoardSave = z.input<typeof boardSaveSchema>;
export type BoardSaveParsed = z.output<typeof boardSaveSchema>;

/** Save simple (edit info): title, category, and optionally the thumbnail URL. */
export const boardInfoSaveSchema = z.object({
  title: requiredText(boardMessages.titleRequired, BOARD_TITLE_MAX_LENGTH),
  categoryId: z.number().int().positive(boardMessages.categoryNotFound),
  backgroundUrl: z.string().max(2000).nullish(),
});
export type BoardInfoSave = z.input<typeof boardInfoSaveSchema>;

/** Sort: the ids in their new order, as the spec's comma string (an array is accepted too). */
export const boardSortSchema = z.object({
  kind: z.enum(BOARD_KINDS).default('visual'),
  ids: z.union([z.string().max(200000), z.array(z.number().int().positive()).max(10000)]).transform((v, ctx) => {
    const parts = Array.isArray(v) ? v.map(String) : v.split(',').filter((s) => s.trim() !== '');
    const ids = parts.map((s) => Number(s.trim()));
    if (ids.some((n) => !Number.isSafeInteger(n) || n <= 0) || new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: 'custom', message: boardMessages.sortIdsInvalid });
      return z.NEVER;
    }
    return ids;
  }),
});
export type BoardSort = z.input<typeof boardSortSchema>;

/** Report authorisation of one board: public, or the groups it is granted to. Public sends an empty group list. */
export const boardAuthSchema = z.object({ publicStatus: z.number(), permIds: z.array(z.number()) });
export type BoardAuth = z.infer<typeof boardAuthSchema>;
export const boardAuthSaveSchema = z.object({
  publicStatus: z.union([z.literal(0), z.literal(1)]),
  dataPermIdList: z.array(z.number().int().positive()).max(1000).default([]),
});
export type BoardAuthSave = z.input<typeof boardAuthSaveSchema>;

/** Report-auth list of a group (dataPermId, reportCategoryId) → board ids; save replaces the group's grants within the category. */
export const groupBoardAuthQuerySchema = z.object({
  kind: z.enum(BOARD_KINDS).default('visual'),
  reportCategoryId: z.coerce.number().int().min(-1).optional(),
});
export const groupBoardAuthSaveSchema = z.object({
  kind: z.enum(BOARD_KINDS).default('visual'),
  reportCategoryId: z.number().int().positive(boardMessages.categoryNotFound),
  selfReportIdList: z.array(z.number().int().positive()).max(10000).default([]),
});
export type GroupBoardAuthSave = z.input<typeof groupBoardAuthSaveSchema>;

// ---------------------------------------------------------------------------------------
// Chart data

/** A value applied by a driving chart to this chart's field (linkage). */
export const chartLinkValueSchema = z.object({
  fieldId,
  function: z.enum(FILTER_FUNCTIONS).default('in'),
  values: z
    .array(z.union([z.string().max(10000), z.number()]).nullable())
    .max(MAX_FILTER_VALUES)
    .default([]),
  /**
   * A click on a time-grouped point: each value is the start of a bucket of this unit, and the
   * link filters the whole bucket [start, end) (a month, a week from Monday, a quarter …).
   */
  granularity: z.enum(TIME_UNITS).nullish(),
});
export type ChartLinkValue = z.input<typeof chartLinkValueSchema>;

/**
 * Chart data. A saved chart: `boardId` + `chartKey` (the caller must be allowed to see the
 * board; the chart's saved dataconfig is read). In an editor before saving: `dataconfig`
 * (the caller must be allowed to read its dataset). Either way the caller's permission
 * filters of the dataset apply, and `links` add the driving charts' values.
 */
export const chartDataRequestSchema = z
  .object({
    boardId: z.number().int().positive().nullish(),
    chartKey: z.string().max(64).nullish(),
    dataconfig: chartDataConfigSchema.nullish(),
    /** What kind of query: aggregated (bar, line, pie, table, pivot, card), detail (detail table, paged), values (filter control options). */
    mode: z.enum(['aggregate', 'detail', 'values']).default('aggregate'),
    links: z.array(chartLinkValueSchema).max(50).default([]),
    current: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(1000).nullish(),
    params: globalParamValuesSchema.default({}),
    /**
     * An editor's unsaved table or pivot shows 合计 (its style's showTotal): the answer carries
     * `totals`. A saved chart's own saved style decides instead; this is then ignored.
     */
    showTotal: z.boolean().nullish(),
  })
  .refine((v) => (v.boardId && v.chartKey) || v.dataconfig, { message: boardMessages.chartNotFound });
export type ChartDataRequest = z.input<typeof chartDataRequestSchema>;
export type ChartDataRequestParsed = z.output<typeof chartDataRequestSchema>;

/**
 * 合计 of a table or pivot whose style shows it, computed by the query engine: each measure
 * with its own aggregation (AVG, COUNT DISTINCT, MAX … are not sums of the rows) over every
 * row the filters, links, parameters and the caller's permission filters let through,
 * whatever the chart's row limit. Keys are the aliases of the answer's fieldDict.
 */
export const chartTotalsSchema = z.object({
  /** The grand total: one value per measure alias (m0 …). */
  grand: z.record(z.string(), cubeCellSchema),
  /**
   * A pivot with column dimensions: one row per column-dimension combination (the column
   * dimensions' aliases and the measure aliases), i.e. the pivot's totals row. Else empty.
   */
  byColumn: z.array(z.record(z.string(), cubeCellSchema)),
  /**
   * A pivot with row and column dimensions: one row per row-dimension combination (the row
   * dimensions' aliases and the measure aliases), i.e. the pivot's 合计 column. Else empty;
   * absent in answers of servers that predate the 合计 column.
   */
  byRow: z.array(z.record(z.string(), cubeCellSchema)).optional(),
});
export type ChartTotals = z.infer<typeof chartTotalsSchema>;

/** Chart data: the rows keyed by fieldDict aliases (d0… dimensions, m0… measures); total for detail tables. */
export const chartDataResultSchema = cubePreviewResultSchema.extend({
  /** True when the answer came from the short result cache or a query another chart had in flight. */
  shared: z.boolean(),
  /** Tables and pivots that show 合计 (aggregate mode) only. */
  totals: chartTotalsSchema.optional(),
});
export type ChartDataResult = z.infer<typeof chartDataResultSchema>;

/** Further board messages the save and category rules need (appended; boardMessages is unchanged). */
export const boardSaveMessages = {
  layoutChartUnknown: '布局中的图表编号【{key}】不存在',
  chartLinkUnknown: '图表【{title}】联动的图表编号【{key}】不存在',
  categoryNotOwned: '只能修改或删除自己创建的分类',
  categoryHasChildrenCannotMove: '该分类下还有子分类，不能移到其他分类下',
  categoryWrongKind: '分类不存在',
  boardNotInCategory: '报表【{id}】不在所选分类中',
} as const;

/**
 * The chart-data body as the server reads it: chartDataRequestSchema plus, for an editor's
 * unsaved chart, its type (a saved chart's type is read from the board).
 */
export const chartDataBodySchema = chartDataRequestSchema.and(z.object({ chartType: z.enum(CHART_TYPES).nullish() }));
export type ChartDataBody = z.input<typeof chartDataBodySchema>;

// ---------------------------------------------------------------------------------------
// Rendering: the preview tells a headless browser when it is done

/** The /openview/{id}?token= page's token lives this long. */
export const BOARD_VIEW_TOKEN_MINUTES = 10;
export const boardViewTokenSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type BoardViewToken = z.infer<typeof boardViewTokenSchema>;
