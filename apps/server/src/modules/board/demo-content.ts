import type { Logger } from 'pino';
import {
  boardCategorySaveSchema,
  boardSaveSchema,
  cubeCategorySaveSchema,
  cubeQueryRequestSchema,
  datasetSaveSchema,
  type BoardKind,
  type BoardSave,
  type ChartSave,
  type DatasetFieldSave,
  type DatasetSave,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { saveCategory as saveDatasetCategory, listFields, saveDataset, type SaveCaller } from '../dataset/index.ts';
import { findBuiltinRow, getSourceMetadata } from '../datasource/index.ts';
import { openRead, readPage } from '../read/index.ts';
import { saveCategory as saveBoardCategory } from './categories.ts';
import { saveBoard } from './save-board.ts';
import { requestThumbnail } from './thumbnail.ts';

/**
 * Demo content at first start (issue 6): a dataset over the demo warehouse and a few public
 * boards on it, so that a new user sees real dashboards at first login. Everything is made
 * through the same service functions the API uses (categories, dataset save, board save), as
 * the first administrator, so it is valid by construction and owned like anything else.
 *
 * It runs once per metadata store: the sys_config key DEMO_CONTENT_KEY records it. A store
 * that has the key never gets demo content again, so what a user deleted stays deleted.
 * Nothing is made when the built-in warehouse lacks the demo tables. See docs/demo-content.md.
 */

/** The sys_config key; its value is the version of the content made ('pending' while it is being made). */
export const DEMO_CONTENT_KEY = 'demoContentVersion';
export const DEMO_CONTENT_VERSION = '1';
const PENDING = 'pending';

export const DEMO_NAMES = {
  category: '示例',
  dataset: '订单分析',
  salesBoard: '销售概览',
  reportBoard: '订单明细报表',
  productBoard: '产品与用户分析',
} as const;

/** The demo tables the dataset reads. */
const TABLES_USED = ['orders', 'users', 'provinces'] as const;

export interface DemoContentResult {
  /** 'created', or why nothing was made. */
  action: 'created' | 'done-before' | 'no-demo-tables' | 'no-administrator' | 'failed';
  datasetIds: number[];
  boardIds: number[];
}

/** Makes the demo content unless this store had it once; failures are logged, never fatal to the start. */
export async function ensureDemoContent(ctx: AppContext, log: Pick<Logger, 'info' | 'warn'>): Promise<DemoContentResult> {
  const nothing = (action: DemoContentResult['action']): DemoContentResult => ({ action, datasetIds: [], boardIds: [] });
  const recorded = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', DEMO_CONTENT_KEY).executeTakeFirst();
  if (recorded) return nothing('done-before');
  const admin = await ctx.db.selectFrom('sysUser').select('id').where('isAdministrator', '=', true).orderBy('id').limit(1).executeTakeFirst();
  if (!admin) return nothing('no-administrator');
  const warehouse = await findBuiltinRow(ctx.db);
  if (!warehouse || !(await hasDemoTables(ctx, warehouse.id))) return nothing('no-demo-tables');

  // Claim the key first: of two processes starting on one store, only one makes the content.
  const claimed = await ctx.db
    .insertInto('sysConfig')
    .values({ key: DEMO_CONTENT_KEY, value: PENDING })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!claimed) return nothing('done-before');
  try {
    const result = await createDemoContent(ctx, { userId: admin.id, isAdministrator: true, permissions: new Set() }, warehouse.id);
    await ctx.db.updateTable('sysConfig').set({ value: DEMO_CONTENT_VERSION }).where('key', '=', DEMO_CONTENT_KEY).execute();
    log.info(
      { datasets: result.datasetIds, boards: result.boardIds },
      `demo content created: dataset ${DEMO_NAMES.dataset}, boards ${Object.values(DEMO_NAMES).slice(2).join('、')}`,
    );
    return result;
  } catch (error) {
    // Released so that the next start tries again; the start itself goes on.
    await ctx.db.deleteFrom('sysConfig').where('key', '=', DEMO_CONTENT_KEY).where('value', '=', PENDING).execute();
    log.warn({ err: error }, 'demo content not created');
    return nothing('failed');
  }
}

/**
 * Thumbnails of the boards just made. The content is made before the job queue starts (so
 * saveBoard asks for none); the renders open this server's own pages, so they are asked for
 * once it listens and knows its URL.
 */
export async function requestDemoThumbnails(ctx: AppContext, demo: DemoContentResult): Promise<void> {
  for (const id of demo.boardIds) await requestThumbnail(ctx, id);
}

async function hasDemoTables(ctx: AppContext, datasourceId: number): Promise<boolean> {
  const tables = await (await getSourceMetadata(ctx, datasourceId)).listTables();
  const names = new Set(tables.map((t) => t.name));
  return TABLES_USED.every((t) => names.has(t));
}

async function createDemoContent(ctx: AppContext, admin: SaveCaller, datasourceId: number): Promise<DemoContentResult> {
  const workspace = await saveDatasetCategory(ctx, admin, cubeCategorySaveSchema.parse({ wsName: DEMO_NAMES.category }));
  const cubeId = await saveDataset(ctx, admin, datasetSaveSchema.parse(orderDataset(workspace.id, datasourceId)));
  const fields = Object.fromEntries((await listFields(ctx.db, cubeId)).map((f) => [f.columnTitle, f.id]));
  const field = (title: string): number => {
    const id = fields[title];
    if (id === undefined) throw new Error(`demo dataset has no field ${title}`);
    return id;
  };
  const category = async (kind: BoardKind) =>
    (await saveBoardCategory(ctx, admin, boardCategorySaveSchema.parse({ kind, categoryValue: DEMO_NAMES.category }))).id;
  const visual = await category('visual');
  const report = await category('report');
  const lastMonth = await lastDemoMonth(ctx, admin, cubeId, field('订购时间'));
  const boards = [salesOverview(visual, cubeId, field), orderReport(report, cubeId, field, lastMonth), productBoard(report, cubeId, field)];
  const boardIds: number[] = [];
  // Saved in reverse: the list shows the newest first, so 销售概览 leads.
  for (const board of boards.reverse()) boardIds.unshift(await saveBoard(ctx, admin, boardSaveSchema.parse(board)));
  return { action: 'created', datasetIds: [cubeId], boardIds };
}

// ---------------------------------------------------------------------------------------
// The dataset: orders with their user and province

const column = (
  id: string,
  table: string,
  columnName: string,
  columnTitle: string,
  sortNum: number,
  extra: Partial<DatasetFieldSave> = {},
): DatasetFieldSave => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: table,
  columnAttr: 'NORMAL',
  sortNum,
  ...extra,
});
const NUMBER = { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' } as const;

/** 订单分析: orders (o) ⟕ users (u) on the phone ⟕ provinces (p) on the province name; public. */
export function orderDataset(workspaceId: number, datasourceId: number): DatasetSave {
  return {
    cubeData: {
      cubeName: DEMO_NAMES.dataset,
      workspaceId,
      remark: '示例数据集：产品订购记录，关联用户与省份维表（示例数据仓库）',
      cubeTableNames: [
        { tableName: 'orders', tableAliasName: 'o', tableComment: '产品订购记录', type: 'TABLE' },
        { tableName: 'users', tableAliasName: 'u', tableComment: '用户表', type: 'TABLE' },
        { tableName: 'provinces', tableAliasName: 'p', tableComment: '省份维表', type: 'TABLE' },
      ],
      linksJoin: [
        { joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'phone', targetKey: 'phone' }] },
        { joinType: 'LEFT_JOIN', source: 'o', target: 'p', joinKeys: [{ sourceKey: 'province', targetKey: 'province_name' }] },
      ],
      publicStatus: 1,
    },
    datasourceId,
    columnList: [
      column('orderId', 'o', 'order_id', '订单编号', 1, { viewDataType: 'NUMBER' }),
      column('orderTime', 'o', 'order_time', '订购时间', 2, { viewDataType: 'DATETIME' }),
      column('province', 'o', 'province', '省份', 3),
      column('area', 'o', 'area', '地市', 4),
      column('region', 'p', 'region', '大区', 5),
      column('product', 'o', 'shortname', '产品', 6),
      column('productType', 'o', 'type_l1_name', '产品类型', 7),
      column('channel', 'o', 'channel_name', '渠道', 8),
      column('channelOwner', 'o', 'belongto', '渠道归属', 9),
      column('status', 'o', 'status', '订购状态', 10),
      column('phone', 'o', 'phone', '手机号', 11),
      column('gender', 'u', 'gender', '性别', 12),
      column('netType', 'u', 'net_type', '终端网络', 13),
      // The join keys of the other side must be fields too; hidden, they duplicate 手机号 and 省份.
      column('userPhone', 'u', 'phone', '用户手机号', 14, { hiddenStatus: 1 }),
      column('provinceName', 'p', 'province_name', '省份名称', 15, { hiddenStatus: 1 }),
      column('amount', 'o', 'amount', '销售额', 1, { ...NUMBER, aggregationType: 'SUM', numberDataFormat: '#,##0.00' }),
      column('age', 'u', 'age', '年龄', 2, { ...NUMBER, aggregationType: 'AVG' }),
      {
        id: 'perCustomer',
        columnAttr: 'VIRTUAL',
        columnTitle: '客单价',
        columnFormula: 'SUM({amount}) / COUNT(DISTINCT {phone})',
        ...NUMBER,
        sortNum: 3,
      },
    ],
    orderByList: [{ fieldId: 'orderTime', direction: 'DESC' }],
  };
}

// ---------------------------------------------------------------------------------------
// Boards

type Field = (title: string) => number;
type Site = { x: number; y: number; w: number; h: number };

const YUAN = '¥#,##0';
const COUNT = '#,##0';
/** The dashboard's palette on its dark canvas. */
const SCREEN = { background: '#0b1733', panel: '#12244a', title: '#cfe3ff', axis: '#9fb7d9', lightPanel: '#eef4ff', lightTitle: '#0b1733' } as const;
const SCREEN_COLORS = ['#3ba1ff', '#36cfc9', '#fadb14', '#ff7a45', '#9254de', '#73d13d', '#f759ab', '#40a9ff', '#ffc53d', '#5cdbd3', '#ff9c6e'];

/**
 * A chart on the dark screen canvas with its frame colours. Charts that draw dark text of their
 * own (indicator cards, tables) sit on light panels so that their figures stay readable.
 */
function screenChart(chart: Omit<ChartSave, 'site'>, site: Site & { anchor?: string }, light = false): ChartSave {
  const colours = light ? { bgColor: SCREEN.lightPanel, titleFontColor: SCREEN.lightTitle } : { bgColor: SCREEN.panel, titleFontColor: SCREEN.title };
  return { ...chart, site: { ...site, ...colours, titleFontSize: 18 } };
}

const layoutOf = (charts: ChartSave[]) => charts.map((c) => ({ i: c.key, x: c.site?.x ?? 0, y: c.site?.y ?? 0, w: c.site?.w ?? 8, h: c.site?.h ?? 6 }));

/** 销售概览: a 1920×1080 dark dashboard — KPI cards, sales by province and month (driven by a province filter), channel pie, region × product type pivot. */
export function salesOverview(categoryId: number, cubeId: number, f: Field): BoardSave {
  const amount = { fieldId: f('销售额'), aggregation: 'SUM' } as const;
  const provinceLink = [{ linkFrom: 'provinceFilter', linkKey: f('省份') }];
  const dark = { colors: SCREEN_COLORS, axisFontColor: SCREEN.axis };
  const card = (key: string, title: string, measure: { fieldId: number; aggregation?: 'SUM' | 'COUNT' | 'COUNT_DISTINCT' }, format: string, x: number) =>
    screenChart(
      {
        key,
        name: 'card',
        title,
        dataconfig: { cubeId, indexParamList: [measure] },
        option: { formats: { [measure.fieldId]: format } },
        ext: { filterList: provinceLink },
      },
      { x, y: 110, w: 455, h: 150 },
      true,
    );
  const charts: ChartSave[] = [
    {
      key: 'title',
      name: 'text',
      title: '',
      option: { fontSize: 40, color: '#ffffff', textAlign: 'center' },
      site: { x: 460, y: 10, w: 1000, h: 80, isSimple: true },
      ext: { text: '数图 · 销售概览' },
    },
    screenChart(
      {
        key: 'provinceFilter',
        name: 'filterSelect',
        title: '省份',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f('省份') }] },
      },
      { x: 1480, y: 10, w: 420, h: 90 },
    ),
    card('kpiAmount', '销售额', amount, YUAN, 20),
    card('kpiOrders', '订单数', { fieldId: f('订单编号'), aggregation: 'COUNT' }, COUNT, 495),
    card('kpiCustomers', '客户数', { fieldId: f('手机号'), aggregation: 'COUNT_DISTINCT' }, COUNT, 970),
    card('kpiPerCustomer', '客单价', { fieldId: f('客单价') }, '¥#,##0.00', 1445),
    screenChart(
      {
        key: 'salesByProvince',
        name: 'bar',
        title: '各省销售额',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f('省份') }], indexParamList: [amount], sortList: [{ ...amount, direction: 'DESC' }] },
        option: { ...dark, showLegend: false, formats: { [amount.fieldId]: YUAN } },
        ext: { filterList: provinceLink },
      },
      { x: 20, y: 280, w: 920, h: 380, anchor: '各省销售' },
    ),
    screenChart(
      {
        key: 'salesByMonth',
        name: 'line',
        title: '月度销售趋势',
        dataconfig: {
          cubeId,
          rowParamList: [{ fieldId: f('订购时间'), granularity: 'MONTH', title: '月份' }],
          indexParamList: [amount, { fieldId: f('订单编号'), aggregation: 'COUNT', title: '订单数' }],
          sortList: [{ fieldId: f('订购时间'), direction: 'ASC' }],
        },
        option: { ...dark, smooth: true, formats: { [amount.fieldId]: YUAN } },
        ext: { filterList: provinceLink },
      },
      { x: 960, y: 280, w: 940, h: 380, anchor: '月度趋势' },
    ),
    screenChart(
      {
        key: 'salesByChannel',
        name: 'pie',
        title: '渠道销售占比',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f('渠道') }], indexParamList: [amount], sortList: [{ ...amount, direction: 'DESC' }] },
        option: { ...dark, donut: true, showLegend: false },
      },
      { x: 20, y: 680, w: 620, h: 390 },
    ),
    screenChart(
      {
        key: 'regionPivot',
        name: 'pivot',
        title: '大区 × 产品类型销售额',
        dataconfig: {
          cubeId,
          rowParamList: [{ fieldId: f('大区') }],
          columnParamList: [{ fieldId: f('产品类型') }],
          indexParamList: [amount],
          sortList: [{ fieldId: f('大区'), direction: 'ASC' }],
        },
        option: { showTotal: true, formats: { [amount.fieldId]: YUAN } },
      },
      { x: 660, y: 680, w: 1240, h: 390, anchor: '大区明细' },
      true,
    ),
  ];
  return {
    kind: 'visual',
    title: DEMO_NAMES.salesBoard,
    categoryId,
    content: {
      type: 'screen',
      width: 1920,
      height: 1080,
      bgColor: SCREEN.background,
      layout: layoutOf(charts),
      anchorTextColor: '#ffffff',
      anchorBgColor: SCREEN.panel,
    },
    charts,
    publicStatus: 1,
  };
}

/**
 * The last month of the demo orders — from its first day to the day of the last order — for the
 * date filter's default. Read from the data: the warehouse ends on the day it was generated
 * (docs/warehouse.md), which a store seeded later may not share.
 */
async function lastDemoMonth(ctx: AppContext, admin: SaveCaller, cubeId: number, timeFieldId: number): Promise<[string, string]> {
  const read = await openRead(ctx, { viewer: admin }, cubeId, undefined);
  const { answer } = await readPage(ctx, read, cubeQueryRequestSchema.parse({ measures: [{ fieldId: timeFieldId, aggregation: 'MAX' }] }));
  const last = String(Object.values(answer.value.dataList[0] ?? {})[0] ?? '').slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(last)) throw new Error('demo orders have no order time');
  return [`${last.slice(0, 7)}-01`, last];
}

/** 订单明细报表: a self-service report — date and channel filters, a per-channel summary and the order detail, paged by 20. */
export function orderReport(categoryId: number, cubeId: number, f: Field, lastMonth: [string, string]): BoardSave {
  const links = [
    { linkFrom: 'dateFilter', linkKey: f('订购时间'), beginFlag: true },
    { linkFrom: 'channelFilter', linkKey: f('渠道') },
  ];
  const amount = { fieldId: f('销售额'), aggregation: 'SUM' } as const;
  const charts: ChartSave[] = [
    {
      key: 'dateFilter',
      name: 'filterDate',
      title: '订购日期',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f('订购时间'), granularity: 'DAY' }] },
      site: { x: 0, y: 0, w: 8, h: 2 },
      ext: { defaultValue: lastMonth },
    },
    {
      key: 'channelFilter',
      name: 'filterSelect',
      title: '渠道',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f('渠道') }] },
      site: { x: 8, y: 0, w: 8, h: 2 },
    },
    {
      key: 'channelSummary',
      name: 'table',
      title: '各渠道汇总',
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f('渠道') }],
        indexParamList: [
          { fieldId: f('订单编号'), aggregation: 'COUNT', title: '订单数' },
          { fieldId: f('手机号'), aggregation: 'COUNT_DISTINCT', title: '客户数' },
          amount,
          { fieldId: f('客单价') },
        ],
        sortList: [{ ...amount, direction: 'DESC' }],
      },
      option: { formats: { [amount.fieldId]: '¥#,##0.00', [f('客单价')]: '¥#,##0.00' } },
      site: { x: 0, y: 2, w: 24, h: 9 },
      ext: { filterList: links },
    },
    {
      key: 'orderDetail',
      name: 'detail',
      title: '订单明细',
      dataconfig: {
        cubeId,
        rowParamList: ['订单编号', '订购时间', '省份', '地市', '产品', '渠道', '订购状态'].map((t) => ({ fieldId: f(t) })),
        indexParamList: [{ fieldId: f('销售额') }],
        sortList: [{ fieldId: f('订购时间'), direction: 'DESC' }],
        pageSize: 20,
      },
      option: { formats: { [amount.fieldId]: '¥#,##0.00' } },
      site: { x: 0, y: 11, w: 24, h: 18 },
      ext: { filterList: links },
    },
  ];
  return {
    kind: 'report',
    title: DEMO_NAMES.reportBoard,
    categoryId,
    content: { type: 'quick', layout: layoutOf(charts) },
    charts,
    publicStatus: 1,
  };
}

/** 产品与用户分析: a quick report — product type by month (stacked), top products, gender and network shares. */
export function productBoard(categoryId: number, cubeId: number, f: Field): BoardSave {
  const amount = { fieldId: f('销售额'), aggregation: 'SUM' } as const;
  const customers = { fieldId: f('手机号'), aggregation: 'COUNT_DISTINCT', title: '客户数' } as const;
  const charts: ChartSave[] = [
    {
      key: 'typeByMonth',
      name: 'bar',
      title: '各产品类型月度销售额',
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f('订购时间'), granularity: 'MONTH', title: '月份' }],
        columnParamList: [{ fieldId: f('产品类型') }],
        indexParamList: [amount],
        sortList: [{ fieldId: f('订购时间'), direction: 'ASC' }],
      },
      option: { stack: true, formats: { [amount.fieldId]: YUAN } },
      site: { x: 0, y: 0, w: 16, h: 8 },
    },
    {
      key: 'topProducts',
      name: 'bar',
      title: '销售额前十的产品',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f('产品') }], indexParamList: [amount], sortList: [{ ...amount, direction: 'DESC' }], limit: 10 },
      option: { horizontal: true, showLegend: false, formats: { [amount.fieldId]: YUAN } },
      site: { x: 16, y: 0, w: 8, h: 8 },
    },
    {
      key: 'byGender',
      name: 'pie',
      title: '客户性别分布',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f('性别') }], indexParamList: [customers] },
      site: { x: 0, y: 8, w: 8, h: 7 },
    },
    {
      key: 'byNetwork',
      name: 'pie',
      title: '终端网络分布',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f('终端网络') }], indexParamList: [customers] },
      option: { donut: true },
      site: { x: 8, y: 8, w: 8, h: 7 },
    },
    {
      key: 'ageByType',
      name: 'table',
      title: '各产品类型客户平均年龄',
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f('产品类型') }],
        indexParamList: [customers, { fieldId: f('年龄'), aggregation: 'AVG', title: '平均年龄' }],
        sortList: [{ fieldId: f('产品类型'), direction: 'ASC' }],
      },
      option: { formats: { [f('年龄')]: '0.0' } },
      site: { x: 16, y: 8, w: 8, h: 7 },
    },
  ];
  return {
    kind: 'report',
    title: DEMO_NAMES.productBoard,
    categoryId,
    content: { type: 'quick', layout: layoutOf(charts) },
    charts,
    publicStatus: 1,
  };
}
