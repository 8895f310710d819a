import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { orderExportMessages } from './orderexport-constants.ts';

export * from './orderexport-constants.ts';

/**
 * Order-data export (spec 3 §2 "Order-data export page", §3 "Order-data export task", "Order-data
 * query form", "Order-data result row", §4 "Order-data export task status", §5 "Order-data export
 * form", §7 "Order-data export", §9; issue 20; docs/order-export.md).
 */

/** Limits of spec 3 §9. */
export const ORDER_EXPORT_PHONE_MAX_LENGTH = 11;
export const ORDER_EXPORT_DEFAULT_MAX_ROWS = 1_000_000;
export const ORDER_EXPORT_MAX_MONTHS = 6;
export const ORDER_EXPORT_MAX_PRODUCTS = 10;
export const ORDER_EXPORT_POLL_MS = 1000;
export const ORDER_EXPORT_MAX_POLLS = 10;
export const ORDER_EXPORT_PAGE_SIZES = [10, 20, 100] as const;
/** Days a generated file is kept (a system setting overrides; docs/order-export.md). */
export const ORDER_EXPORT_DEFAULT_RETENTION_DAYS = 7;

/**
 * The output columns: form flag → result-row column and its Chinese header. userid is always
 * written first; the add-on columns follow when their fetchflag is on.
 */
export const ORDER_OUTPUT_COLUMNS = [
  { flag: 'outputProvince', column: 'province', title: '省份' },
  { flag: 'outputArea', column: 'area', title: '地市' },
  { flag: 'outputSpid', column: 'spid', title: '产品编码' },
  { flag: 'outputPrmid', column: 'prmid', title: '资费编码' },
  { flag: 'outputSpname', column: 'shortname', title: '产品名称' },
  { flag: 'outputOrdertime', column: 'ordertime', title: '订购时间' },
  { flag: 'outputOrderchannelname', column: 'orderchannelname', title: '订购渠道' },
  { flag: 'outputOrderbelongto', column: 'orderbelongto', title: '订购渠道归属' },
  { flag: 'outputOrderchannelid', column: 'orderchannel', title: '订购渠道编码' },
  { flag: 'outputCanceltime', column: 'canceltime', title: '退订时间' },
  { flag: 'outputCancelchannelname', column: 'cancelchannelname', title: '退订渠道' },
  { flag: 'outputCancelbelongto', column: 'cancelbelongto', title: '退订渠道归属' },
  { flag: 'outputCancelchannelid', column: 'cancelchannel', title: '退订渠道编码' },
  { flag: 'outPutIsCB', column: 'iscb', title: '是否退订' },
] as const;
export type OrderOutputFlag = (typeof ORDER_OUTPUT_COLUMNS)[number]['flag'];
export const ORDER_ADDON_COLUMNS = [
  { flag: 'fetchflag1', column: 'vipnums', title: '会员领取次数' },
  { flag: 'fetchflag2', column: 'flows', title: '流量（MB）' },
  { flag: 'fetchflag3', column: 'cnums', title: '投诉次数' },
] as const;
/** Checked by default (spec 3 §9): product id, product name, order time, order channel. */
export const ORDER_OUTPUT_DEFAULTS: readonly OrderOutputFlag[] = ['outputSpid', 'outputSpname', 'outputOrdertime', 'outputOrderchannelname'];

const flag = z.coerce.number().int().min(0).max(1).default(0);
const day = z
  .string()
  .regex(/^\d{8}$/, '日期格式应为yyyyMMdd')
  .nullish();
const month = z
  .string()
  .regex(/^\d{6}$/, '月份格式应为yyyyMM')
  .nullish();
const list = z.array(z.string().trim().min(1).max(50)).max(200).default([]);
const products = z.array(z.string().trim().min(1).max(50)).max(ORDER_EXPORT_MAX_PRODUCTS, orderExportMessages.tooManyProducts).default([]);

const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(4, 6)) - 1;

/** The query form (spec 3 §3 "Order-data query form"), as JSON (add) or the fields of the multipart addtxt. */
export const orderQuerySchema = z
  .object({
    utype: z.coerce.number({ message: orderExportMessages.required }).int().min(1, orderExportMessages.required).max(3, orderExportMessages.required),
    CUsertype: z.coerce.number({ message: orderExportMessages.required }).int().min(1, orderExportMessages.required).max(2, orderExportMessages.required),
    userId: z.string().trim().max(ORDER_EXPORT_PHONE_MAX_LENGTH, orderExportMessages.phoneTooLong).nullish(),
    belongto: list,
    belongtoCancel: list,
    orderChannel: list,
    cancelChannel: list,
    orderDayStart: day,
    orderDayEnd: day,
    cancelDayStart: day,
    cancelDayEnd: day,
    monthStart: month,
    monthEnd: month,
    cpType: list,
    /** Level-2 product types: at most 10. */
    fullCptype: products,
    /** Products (level 3): at most 10. */
    spid: products,
    province: list,
    area: list,
    fetchflag1: flag,
    fetchflag2: flag,
    fetchflag3: flag,
    sinceOrder: flag,
    ...(Object.fromEntries(ORDER_OUTPUT_COLUMNS.map((c) => [c.flag, flag])) as Record<OrderOutputFlag, typeof flag>),
    /** The task name (mcomment); may be given later with updatename. */
    mcomment: z.string().trim().max(100).nullish(),
  })
  .superRefine((form, issue) => {
    if (form.utype === 1 && !form.userId) issue.addIssue({ code: 'custom', path: ['userId'], message: orderExportMessages.required });
    for (const [start, end] of [
      ['orderDayStart', 'orderDayEnd'],
      ['cancelDayStart', 'cancelDayEnd'],
    ] as const) {
      if (form[start] && form[end] && form[start]! > form[end]!) issue.addIssue({ code: 'custom', path: [end], message: orderExportMessages.dayRangeReversed });
    }
    const addOn = form.fetchflag1 || form.fetchflag2 || form.fetchflag3;
    if (addOn && (!form.monthStart || !form.monthEnd)) issue.addIssue({ code: 'custom', path: ['monthStart'], message: orderExportMessages.required });
    if (form.monthStart && form.monthEnd) {
      const span = monthIndex(form.monthEnd) - monthIndex(form.monthStart);
      if (span < 0 || span >= ORDER_EXPORT_MAX_MONTHS) issue.addIssue({ code: 'custom', path: ['monthEnd'], message: orderExportMessages.monthRangeTooLong });
    }
  });
export type OrderQueryForm = z.input<typeof orderQuerySchema>;
export type OrderQueryParsed = z.output<typeof orderQuerySchema>;

export const orderExportTaskSchema = z.object({
  taskId: z.number(),
  mcomment: z.string().nullable(),
  fetchedNums: z.number().nullable(),
  createTime: z.string(),
  creator: z.string(),
  taskStatus1: z.number(),
  statusLabel: z.string(),
  /** Rows so far in the current step. */
  progress: z.number(),
  utype: z.number(),
  cusertype: z.number(),
  conditionJson: z.string(),
  errorMsg: z.string().nullable(),
  /** Every status change with its time and the rows so far. */
  history: z.array(z.object({ status: z.number(), time: z.string(), rows: z.number() })),
  fileExpired: z.boolean(),
});
export type OrderExportTask = z.infer<typeof orderExportTaskSchema>;

export const orderExportPageQuerySchema = pageQuerySchema.extend({
  mcomment: z.string().trim().max(100).optional(),
  startTime: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  endTime: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
export const orderExportResultQuerySchema = z.object({
  taskId: z.coerce.number().int().positive(),
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => (ORDER_EXPORT_PAGE_SIZES as readonly number[]).includes(n))
    .default(10),
});
export const orderExportUpdateNameSchema = z.object({
  taskId: z.coerce.number().int().positive(),
  taskName: z.string({ message: orderExportMessages.taskNameRequired }).trim().min(1, orderExportMessages.taskNameRequired).max(100),
  conditionJson: z.string().max(100_000).optional(),
});
export const orderExportResultSchema = z.object({
  columns: z.array(z.object({ column: z.string(), title: z.string() })),
  records: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  total: z.number(),
  current: z.number(),
  size: z.number(),
});

export { ORDER_EXPORT_PATHS } from './constants.ts';

export interface OrderOptionNode {
  value: string;
  title: string;
  children?: OrderOptionNode[];
}
const optionNode: z.ZodType<OrderOptionNode> = z
  .object({
    value: z.string(),
    title: z.string(),
    get children() {
      return z.array(optionNode).optional();
    },
  })
  // A named schema: the API document refers to it from itself.
  .meta({ id: 'OrderOptionNode' });
export const orderOptionTreeSchema = z.array(optionNode);
export const orderChannelOptionsSchema = z.object({ channels: z.array(z.object({ value: z.string(), title: z.string() })), belongs: z.array(z.string()) });

export const ORDER_EXPORT_JOB = 'order-export';
export interface OrderExportJobData {
  taskId: number;
}

/** The module's settings (系统管理员): the batch's line limit and the days files are kept. */
export const orderExportSettingsSchema = z.object({
  maxRows: z.coerce.number().int().min(1).max(100_000_000),
  retentionDays: z.coerce.number().int().min(1).max(3650),
});
export type OrderExportSettings = z.infer<typeof orderExportSettingsSchema>;
