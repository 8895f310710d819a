/**
 * The 20-chart board of the board benchmark (issue 6) over the demo `orders` table: its dataset
 * and its charts. Shared by bench/board (one server, DuckDB) and bench/cluster (the cluster).
 */
import type { BoardSave, ChartSave, DatasetSave } from '@shutu/contracts';

const field = (id: string, columnName: string, columnTitle: string, extra: Partial<DatasetSave['columnList'][number]> = {}) => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: 'o',
  columnAttr: 'NORMAL' as const,
  ...extra,
});

export function ordersDataset(workspaceId: number, datasourceId: number, cubeName: string): DatasetSave {
  return {
    cubeData: { cubeName, workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 1 },
    datasourceId,
    columnList: [
      field('province', 'province', '省份'),
      field('area', 'area', '地市'),
      field('channel', 'channel_name', '渠道'),
      field('owner', 'belongto', '渠道归属'),
      field('product', 'shortname', '产品'),
      field('type1', 'type_l1_name', '一级产品类型'),
      field('type2', 'type_l2_name', '二级产品类型'),
      field('status', 'status', '订购状态'),
      field('phone', 'phone', '手机号'),
      field('orderId', 'order_id', '订单编号', { viewDataType: 'NUMBER' }),
      field('time', 'order_time', '订购时间', { viewDataType: 'DATETIME' }),
      field('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
    ],
  };
}

type Agg = 'SUM' | 'COUNT' | 'COUNT_DISTINCT' | 'APPROX_COUNT_DISTINCT' | 'AVG';
interface ChartSpec {
  name: ChartSave['name'];
  title: string;
  rows?: (string | [string, 'MONTH' | 'WEEK' | 'DAY'])[];
  columns?: string[];
  measures: [string, Agg][];
}

/**
 * Twenty charts over different groupings; the last two repeat the queries of two others
 * (same dataconfig, another chart type), so they share one execution (single flight).
 */
export const CHARTS: ChartSpec[] = [
  { name: 'card', title: '销售额', measures: [['金额', 'SUM']] },
  { name: 'card', title: '订单数', measures: [['订单编号', 'COUNT']] },
  { name: 'card', title: '客户数', measures: [['手机号', 'COUNT_DISTINCT']] },
  { name: 'card', title: '平均订单金额', measures: [['金额', 'AVG']] },
  { name: 'bar', title: '各省销售额', rows: ['省份'], measures: [['金额', 'SUM']] },
  { name: 'bar', title: '各渠道订单数', rows: ['渠道'], measures: [['订单编号', 'COUNT']] },
  { name: 'line', title: '月度销售额', rows: [['订购时间', 'MONTH']], measures: [['金额', 'SUM']] },
  { name: 'line', title: '每日订单数', rows: [['订购时间', 'DAY']], measures: [['订单编号', 'COUNT']] },
  { name: 'pie', title: '产品类型占比', rows: ['一级产品类型'], measures: [['金额', 'SUM']] },
  { name: 'pie', title: '订购状态', rows: ['订购状态'], measures: [['订单编号', 'COUNT']] },
  {
    name: 'table',
    title: '各地市汇总',
    rows: ['地市'],
    measures: [
      ['金额', 'SUM'],
      ['订单编号', 'COUNT'],
    ],
  },
  {
    name: 'table',
    title: '各产品汇总',
    rows: ['产品'],
    measures: [
      ['金额', 'SUM'],
      ['手机号', 'COUNT_DISTINCT'],
    ],
  },
  { name: 'pivot', title: '省份 × 渠道', rows: ['省份'], columns: ['渠道'], measures: [['金额', 'SUM']] },
  { name: 'pivot', title: '月份 × 产品类型', rows: [['订购时间', 'MONTH']], columns: ['一级产品类型'], measures: [['订单编号', 'COUNT']] },
  { name: 'bar', title: '渠道归属销售额', rows: ['渠道归属'], measures: [['金额', 'SUM']] },
  { name: 'line', title: '每周销售额', rows: [['订购时间', 'WEEK']], measures: [['金额', 'SUM']] },
  { name: 'bar', title: '二级产品类型客户数', rows: ['二级产品类型'], measures: [['手机号', 'COUNT_DISTINCT']] },
  { name: 'table', title: '省份 × 状态', rows: ['省份', '订购状态'], measures: [['订单编号', 'COUNT']] },
  { name: 'table', title: '各省销售额（表）', rows: ['省份'], measures: [['金额', 'SUM']] },
  { name: 'pie', title: '渠道订单占比', rows: ['渠道'], measures: [['订单编号', 'COUNT']] },
];

/**
 * 1920×1080, five columns by four rows. `approxDistinct`: the charts' authors chose 近似去重计数
 * for the three distinct counts of phones (`--approx`).
 */
export function board20(categoryId: number, cubeId: number, ids: Record<string, number>, options: { approxDistinct?: boolean } = {}): BoardSave {
  const id = (title: string) => {
    const value = ids[title];
    if (value === undefined) throw new Error(`no field ${title}`);
    return value;
  };
  const [w, h, gap] = [372, 252, 12];
  const charts: ChartSave[] = CHARTS.map((spec, i) => ({
    key: `c${i + 1}`,
    name: spec.name,
    title: spec.title,
    dataconfig: {
      cubeId,
      rowParamList: (spec.rows ?? []).map((r) => (Array.isArray(r) ? { fieldId: id(r[0]), granularity: r[1] } : { fieldId: id(r) })),
      columnParamList: (spec.columns ?? []).map((c) => ({ fieldId: id(c) })),
      indexParamList: spec.measures.map(([title, aggregation]) => ({
        fieldId: id(title),
        aggregation: options.approxDistinct && aggregation === 'COUNT_DISTINCT' ? ('APPROX_COUNT_DISTINCT' as const) : aggregation,
      })),
      // Time axes in time order.
      sortList: (spec.rows ?? []).filter((r) => Array.isArray(r)).map((r) => ({ fieldId: id(r[0]), direction: 'ASC' as const })),
    },
    site: { x: gap + (i % 5) * (w + gap), y: gap + Math.floor(i / 5) * (h + gap), w, h },
  }));
  return {
    kind: 'visual',
    title: '二十图表基准大屏',
    categoryId,
    content: {
      type: 'screen',
      width: 1920,
      height: 1080,
      layout: charts.map((c) => ({ i: c.key, x: c.site!.x!, y: c.site!.y!, w: c.site!.w!, h: c.site!.h! })),
    },
    charts,
    publicStatus: 1,
  };
}
