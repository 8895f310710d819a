import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { ORDER_ADDON_COLUMNS, ORDER_EXPORT_MAX_MONTHS, ORDER_OUTPUT_COLUMNS, type OrderOutputFlag, type OrderQueryForm } from '@shutu/contracts';

/** What the antd form holds; `toQuery` turns it into the server's query form. */
export interface FormValues {
  utype: 1 | 2 | 3;
  CUsertype: 1 | 2;
  userId?: string;
  days?: [Dayjs, Dayjs] | null;
  channels?: string[];
  belongs?: string[];
  areas?: string[];
  products?: string[];
  addOn?: ('fetchflag1' | 'fetchflag2' | 'fetchflag3')[];
  months?: [Dayjs, Dayjs] | null;
  outputs?: OrderOutputFlag[];
  mcomment?: string;
}

/** The default add-on months (spec 3 §4): six months ago to last month. */
export const defaultMonths = (now = dayjs()): [Dayjs, Dayjs] => [now.subtract(6, 'month').startOf('month'), now.subtract(1, 'month').startOf('month')];

/** More than six months (inclusive) between the two ends. */
export const monthsTooLong = (range: [Dayjs, Dayjs]) => range[1].diff(range[0], 'month') >= ORDER_EXPORT_MAX_MONTHS;

/** Products picked at level 2 (t2:) and level 3 (p:): each at most 10. */
export const productLevels = (values: readonly string[] = []) => ({
  types: values.filter((v) => v.startsWith('t2:')).map((v) => v.slice(3)),
  level1: values.filter((v) => v.startsWith('t1:')).map((v) => v.slice(3)),
  spids: values.filter((v) => v.startsWith('p:')).map((v) => v.slice(2)),
});

export function toQuery(values: FormValues, provinces: ReadonlySet<string>): OrderQueryForm {
  const day = (d: Dayjs | undefined) => d?.format('YYYYMMDD');
  const cancelling = values.CUsertype === 2;
  const { types, level1, spids } = productLevels(values.products);
  const flags = Object.fromEntries([...ORDER_OUTPUT_COLUMNS, ...ORDER_ADDON_COLUMNS].map((c) => [c.flag, 0]));
  for (const f of values.outputs ?? []) flags[f] = 1;
  for (const f of values.addOn ?? []) flags[f] = 1;
  const addOn = (values.addOn ?? []).length > 0;
  return {
    ...flags,
    utype: values.utype,
    CUsertype: values.CUsertype,
    userId: values.utype === 1 ? values.userId?.trim() : undefined,
    orderDayStart: cancelling ? undefined : day(values.days?.[0]),
    orderDayEnd: cancelling ? undefined : day(values.days?.[1]),
    cancelDayStart: cancelling ? day(values.days?.[0]) : undefined,
    cancelDayEnd: cancelling ? day(values.days?.[1]) : undefined,
    orderChannel: cancelling ? [] : (values.channels ?? []),
    cancelChannel: cancelling ? (values.channels ?? []) : [],
    belongto: cancelling ? [] : (values.belongs ?? []),
    belongtoCancel: cancelling ? (values.belongs ?? []) : [],
    province: (values.areas ?? []).filter((a) => provinces.has(a)),
    area: (values.areas ?? []).filter((a) => !provinces.has(a)),
    cpType: level1,
    fullCptype: types,
    spid: spids,
    monthStart: addOn ? values.months?.[0].format('YYYYMM') : undefined,
    monthEnd: addOn ? values.months?.[1].format('YYYYMM') : undefined,
    mcomment: values.mcomment?.trim() || undefined,
  } as OrderQueryForm;
}
