/**
 * Tables of the demo warehouse: names, types and the Chinese comments that introspection shows
 * (DuckDB `COMMENT ON`). The single source for CREATE TABLE, COMMENT ON and docs/warehouse.md.
 */
import { lit } from './hash.ts';

export interface ColumnSpec {
  name: string;
  type: string;
  comment: string;
}

export interface TableSpec {
  name: string;
  comment: string;
  columns: readonly ColumnSpec[];
}

const c = (name: string, type: string, comment: string): ColumnSpec => ({ name, type, comment });

const PHONE = c('phone', 'VARCHAR', '用户手机号（11位）');
const PROVINCE = c('province', 'VARCHAR', '省份');
const AREA = c('area', 'VARCHAR', '地市');
const SPID = c('spid', 'VARCHAR', '产品编码（SPID）');
const SHORTNAME = c('shortname', 'VARCHAR', '产品简称');
const TASK_ID = c('task_id', 'VARCHAR', '营销任务编号');
const DT = c('dt', 'VARCHAR', '统计日期（yyyyMMdd）');

export const DEMO_TABLES: readonly TableSpec[] = [
  {
    name: 'provinces',
    comment: '省份维表',
    columns: [
      c('province_code', 'VARCHAR', '省份编码'),
      c('province_name', 'VARCHAR', '省份名称'),
      c('region', 'VARCHAR', '大区'),
      c('sort_no', 'INTEGER', '排序号'),
    ],
  },
  {
    name: 'areas',
    comment: '地市维表',
    columns: [
      c('area_code', 'VARCHAR', '地市编码'),
      c('area_name', 'VARCHAR', '地市名称'),
      c('province_code', 'VARCHAR', '所属省份编码'),
      c('province_name', 'VARCHAR', '所属省份'),
    ],
  },
  {
    name: 'channels',
    comment: '渠道维表',
    columns: [
      c('channel_id', 'VARCHAR', '渠道编码'),
      c('channel_name', 'VARCHAR', '渠道名称'),
      c('channel_type', 'VARCHAR', '渠道类型'),
      c('belongto', 'VARCHAR', '渠道归属（集团/省公司/合作方）'),
    ],
  },
  {
    name: 'product_types',
    comment: '产品类型树（一级、二级）',
    columns: [
      c('type_id', 'INTEGER', '类型编号'),
      c('type_name', 'VARCHAR', '类型名称'),
      c('parent_id', 'INTEGER', '上级类型编号（一级为0）'),
      c('type_level', 'INTEGER', '层级（1或2）'),
    ],
  },
  {
    name: 'products',
    comment: '产品维表',
    columns: [
      SPID,
      c('prmid', 'VARCHAR', '资费编码'),
      SHORTNAME,
      c('product_name', 'VARCHAR', '产品全称'),
      c('sp_name', 'VARCHAR', '合作方名称'),
      c('type_l1_id', 'INTEGER', '一级产品类型编号'),
      c('type_l1_name', 'VARCHAR', '一级产品类型'),
      c('type_l2_id', 'INTEGER', '二级产品类型编号'),
      c('type_l2_name', 'VARCHAR', '二级产品类型'),
      c('billing_type', 'VARCHAR', '计费方式（包月/包日/单次）'),
      c('price', 'DECIMAL(10,2)', '标准资费（元）'),
    ],
  },
  {
    name: 'users',
    comment: '用户表',
    columns: [
      PHONE,
      c('shence_id', 'VARCHAR', '神策用户标识（distinct id）'),
      PROVINCE,
      AREA,
      c('gender', 'VARCHAR', '性别（男/女）'),
      c('age', 'INTEGER', '年龄'),
      c('net_type', 'VARCHAR', '终端网络（4G/5G）'),
      c('register_time', 'TIMESTAMP', '入网时间'),
    ],
  },
  {
    name: 'orders',
    comment: '产品订购记录',
    columns: [
      c('order_id', 'BIGINT', '订单编号'),
      PHONE,
      PROVINCE,
      AREA,
      SPID,
      SHORTNAME,
      c('type_l1_name', 'VARCHAR', '一级产品类型'),
      c('type_l2_name', 'VARCHAR', '二级产品类型'),
      c('channel_id', 'VARCHAR', '订购渠道编码'),
      c('channel_name', 'VARCHAR', '订购渠道名称'),
      c('belongto', 'VARCHAR', '订购渠道归属'),
      c('order_time', 'TIMESTAMP', '订购时间'),
      c('amount', 'DECIMAL(10,2)', '订购金额（元）'),
      c('status', 'VARCHAR', '订购状态（订购成功/订购失败/处理中）'),
    ],
  },
  {
    name: 'cancellations',
    comment: '产品退订记录（每条对应一笔成功订购）',
    columns: [
      c('order_id', 'BIGINT', '原订单编号'),
      PHONE,
      PROVINCE,
      AREA,
      SPID,
      SHORTNAME,
      c('order_time', 'TIMESTAMP', '订购时间'),
      c('cancel_time', 'TIMESTAMP', '退订时间'),
      c('channel_id', 'VARCHAR', '退订渠道编码'),
      c('channel_name', 'VARCHAR', '退订渠道名称'),
      c('belongto', 'VARCHAR', '退订渠道归属'),
      c('reason', 'VARCHAR', '退订原因'),
    ],
  },
  {
    name: 'user_month_usage',
    comment: '用户月度使用（会员领取、流量、投诉）',
    columns: [
      c('month', 'VARCHAR', '月份（yyyy-MM）'),
      PHONE,
      c('vip_receipts', 'INTEGER', '会员领取次数'),
      c('flow_mb', 'INTEGER', '当月流量（MB）'),
      c('complaints', 'INTEGER', '投诉次数'),
    ],
  },
  {
    name: 'web_pages',
    comment: '网站页面（热力图）',
    columns: [
      c('page_id', 'INTEGER', '页面编号'),
      c('page_title', 'VARCHAR', '页面标题'),
      c('url', 'VARCHAR', '页面地址'),
      c('platform_type', 'VARCHAR', '平台类型（PC/H5）'),
      c('page_height', 'INTEGER', '页面高度（像素）'),
    ],
  },
  {
    name: 'click_events',
    comment: '网站点击事件（clickScreen）',
    columns: [
      c('event_id', 'BIGINT', '事件编号'),
      c('event', 'VARCHAR', '事件名'),
      c('event_time', 'TIMESTAMP', '事件时间'),
      c('distinct_id', 'VARCHAR', '神策用户标识（distinct id）'),
      PHONE,
      c('page_title', 'VARCHAR', '页面标题'),
      c('url', 'VARCHAR', '页面地址'),
      c('platform_type', 'VARCHAR', '平台类型（PC/H5）'),
      c('project', 'VARCHAR', '埋点项目'),
      c('attr1', 'INTEGER', '点击横坐标x（像素）'),
      c('attr2', 'INTEGER', '点击纵坐标y（像素）'),
      c('attr3', 'INTEGER', '页面宽度（像素）'),
      c('session_id', 'BIGINT', '会话编号'),
    ],
  },
  {
    name: 'tags',
    comment: '用户标签定义',
    columns: [
      c('tag_id', 'INTEGER', '标签编号'),
      c('tag_name', 'VARCHAR', '标签名称'),
      c('level1_name', 'VARCHAR', '一级分类'),
      c('level2_name', 'VARCHAR', '二级分类'),
      c('tag_group', 'VARCHAR', '标签组（basic/product/network/algorithm）'),
      c('user_type', 'VARCHAR', '用户类型'),
      c('tag_desc', 'VARCHAR', '标签说明'),
      c('tag_type', 'INTEGER', '标签类型（1分类，2统计）'),
      c('develop_type', 'INTEGER', '开发方式（1算法，2非算法）'),
      c('exclusion', 'INTEGER', '互斥（1互斥，2不互斥）'),
      c('is_online', 'INTEGER', '状态（1使用中，2已停用）'),
    ],
  },
  {
    name: 'user_tags',
    comment: '用户标签（按月份区间）',
    columns: [
      PHONE,
      c('tag_id', 'INTEGER', '标签编号'),
      c('start_month', 'VARCHAR', '起始月份（yyyy-MM，含）'),
      c('end_month', 'VARCHAR', '截止月份（yyyy-MM，含）'),
    ],
  },
  {
    name: 'tag_month_counts',
    comment: '标签月度用户数',
    columns: [
      c('month', 'VARCHAR', '月份（yyyy-MM）'),
      c('tag_id', 'INTEGER', '标签编号'),
      c('tag_name', 'VARCHAR', '标签名称'),
      c('level1_name', 'VARCHAR', '一级分类'),
      c('level2_name', 'VARCHAR', '二级分类'),
      c('user_count', 'BIGINT', '用户数'),
    ],
  },
  {
    name: 'marketing_tasks',
    comment: '营销任务',
    columns: [
      TASK_ID,
      c('mission_name', 'VARCHAR', '任务名称'),
      c('task_type', 'INTEGER', '任务类型（1激活，2营销漏斗，3领取）'),
      c('task_type_name', 'VARCHAR', '任务类型名称'),
      c('channel_id', 'VARCHAR', '渠道编码'),
      c('channel_name', 'VARCHAR', '渠道名称'),
      SPID,
      SHORTNAME,
      c('target_group_number', 'INTEGER', '目标人群数'),
      c('add_time', 'TIMESTAMP', '创建时间'),
      c('push_time', 'TIMESTAMP', '推送时间'),
    ],
  },
  {
    name: 'task_activation_daily',
    comment: '激活任务每日统计',
    columns: [
      TASK_ID,
      DT,
      c('total_send_message', 'INTEGER', '发送短信数'),
      c('activate_num', 'INTEGER', '激活数'),
      c('activate_num_rate', 'DECIMAL(7,4)', '激活率（激活数/发送数）'),
      c('cancels_num', 'INTEGER', '退订数'),
      c('cancel_num_rate', 'DECIMAL(7,4)', '退订率（退订数/激活数）'),
    ],
  },
  {
    name: 'task_receive_daily',
    comment: '领取任务每日统计',
    columns: [
      TASK_ID,
      DT,
      c('total_send_message', 'INTEGER', '发送短信数'),
      c('receives_num', 'INTEGER', '领取数'),
      c('receive_num_rate', 'DECIMAL(7,4)', '领取率（领取数/发送数）'),
      c('cancels_num', 'INTEGER', '退订数'),
      c('cancel_num_rate', 'DECIMAL(7,4)', '退订率（退订数/领取数）'),
    ],
  },
  {
    name: 'task_funnel_daily',
    comment: '营销漏斗每日统计',
    columns: [
      TASK_ID,
      c('channel_id', 'VARCHAR', '渠道编码'),
      DT,
      c('product_views', 'INTEGER', '产品浏览'),
      c('unified_auth', 'INTEGER', '统一认证'),
      c('order_attempts', 'INTEGER', '订购次数'),
      c('order_success', 'INTEGER', '订购成功次数'),
    ],
  },
  {
    name: 'task_retention_monthly',
    comment: '营销漏斗月度留存',
    columns: [
      TASK_ID,
      c('channel_id', 'VARCHAR', '渠道编码'),
      c('month', 'VARCHAR', '订购月份（yyyyMM）'),
      c('order_users', 'INTEGER', '订购用户数'),
      c('month_offset', 'INTEGER', '第N月'),
      c('retained_users', 'INTEGER', '第N月留存用户数'),
    ],
  },
];

/** Result-row view of the order-data export (spec 3 §3): orders with their cancellation and that month's usage. */
export const ORDER_DATA_VIEW: TableSpec = {
  name: 'v_order_data',
  comment: '订购数据明细（订购、退订与当月使用）',
  columns: [
    c('userid', 'VARCHAR', '用户手机号'),
    c('province', 'VARCHAR', '省份'),
    c('area', 'VARCHAR', '地市'),
    c('spid', 'VARCHAR', '产品编码'),
    c('shortname', 'VARCHAR', '产品简称'),
    c('ordertime', 'TIMESTAMP', '订购时间'),
    c('orderchannelname', 'VARCHAR', '订购渠道名称'),
    c('orderbelongto', 'VARCHAR', '订购渠道归属'),
    c('orderchannel', 'VARCHAR', '订购渠道编码'),
    c('canceltime', 'TIMESTAMP', '退订时间'),
    c('cancelchannelname', 'VARCHAR', '退订渠道名称'),
    c('cancelbelongto', 'VARCHAR', '退订渠道归属'),
    c('cancelchannel', 'VARCHAR', '退订渠道编码'),
    c('vipnums', 'INTEGER', '会员领取次数'),
    c('flows', 'INTEGER', '当月流量（MB）'),
    c('cnums', 'INTEGER', '投诉次数'),
    c('order_id', 'BIGINT', '订单编号'),
  ],
};

export const ORDER_DATA_VIEW_SQL = `CREATE VIEW v_order_data AS
SELECT o.phone AS userid, o.province, o.area, o.spid, o.shortname, o.order_time AS ordertime,
       o.channel_name AS orderchannelname, o.belongto AS orderbelongto, o.channel_id AS orderchannel,
       x.cancel_time AS canceltime, x.channel_name AS cancelchannelname, x.belongto AS cancelbelongto, x.channel_id AS cancelchannel,
       u.vip_receipts AS vipnums, u.flow_mb AS flows, u.complaints AS cnums, o.order_id
FROM orders o
LEFT JOIN cancellations x ON x.order_id = o.order_id
LEFT JOIN user_month_usage u ON u.phone = o.phone AND u.month = strftime(o.order_time, '%Y-%m')
WHERE o.status = '订购成功'`;

export const META_TABLE: TableSpec = {
  name: 'demo_warehouse_meta',
  comment: '演示数仓生成记录',
  columns: [
    c('generator_version', 'INTEGER', '生成器版本'),
    c('seed', 'BIGINT', '随机种子'),
    c('scale', 'BIGINT', '订购记录行数'),
    c('anchor_date', 'VARCHAR', '锚定日期（数据截止日）'),
    c('generated_at', 'TIMESTAMP', '生成时间（UTC）'),
    c('duration_ms', 'BIGINT', '生成耗时（毫秒）'),
    c('duckdb_version', 'VARCHAR', 'DuckDB版本'),
  ],
};

export function createTableSql(t: TableSpec): string {
  return `CREATE TABLE ${t.name} (${t.columns.map((col) => `${col.name} ${col.type}`).join(', ')});`;
}

export function commentSql(t: TableSpec, kind: 'TABLE' | 'VIEW' = 'TABLE'): string {
  const cols = t.columns.map((col) => `COMMENT ON COLUMN ${t.name}.${col.name} IS ${lit(col.comment)};`);
  return [`COMMENT ON ${kind} ${t.name} IS ${lit(t.comment)};`, ...cols].join('\n');
}

/** Every object the generator owns (dropped and rebuilt together). */
export const DEMO_TABLE_NAMES: readonly string[] = DEMO_TABLES.map((t) => t.name);
