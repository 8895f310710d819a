import { MARKET_TASK_TYPES, marketMessages } from '@shutu/contracts/market-constants';

/** Labels of the marketing task statistics pages (zh-CN). */
export const mk = {
  ...marketMessages,
  types: MARKET_TASK_TYPES,
  page: '营销任务统计',
  pageDesc: '营销任务的激活、营销漏斗与领取效果统计',
  missionName: '任务名称',
  taskType: '任务类型',
  allTypes: '全部类型',
  pushTime: '推送时间',
  channel: '渠道',
  channelId: '渠道编号',
  audience: '目标人群数',
  action: '操作',
  stats: '统计',
  search: '搜索',
  panelTitle: '任务效果统计',
  dt: '日期',
  sends: '发送短信数',
  activates: '激活数',
  activateRate: '激活率',
  receives: '领取数',
  receiveRate: '领取率',
  cancels: '退订数',
  cancelRate: '退订率',
  bar: '柱状图',
  total: '总量',
  line: '折线图',
  funnelTitle: '营销漏斗（按日）',
  views: '产品浏览',
  auth: '统一认证',
  attempts: '订购次数',
  success: '订购成功次数',
  totalRow: '合计',
  keepTitle: '月度留存（24个月）',
  month: '月份',
  orderUsers: '订购用户数',
  keepN: (n: number) => `第${n}月留存`,
  empty: '暂无数据',
} as const;

/** A fraction as a percentage with 2 decimals (spec 3 §3). */
export const percent = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(2)}%`);
/** yyyyMMdd → yyyy-MM-dd for reading. */
export const dayLabel = (dt: string) => (dt.length === 8 ? `${dt.slice(0, 4)}-${dt.slice(4, 6)}-${dt.slice(6)}` : dt);
