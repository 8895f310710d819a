import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { orderQuerySchema } from '@shutu/contracts';
import { defaultMonths, monthsTooLong, productLevels, toQuery } from './form-values.ts';

describe('order-data query form values (issue 20)', () => {
  it('defaults the add-on months to six months ago … last month, and refuses more than six', () => {
    const [start, end] = defaultMonths(dayjs('2026-11-25'));
    expect([start.format('YYYYMM'), end.format('YYYYMM')]).toEqual(['202605', '202610']);
    expect(monthsTooLong([start, end])).toBe(false);
    expect(monthsTooLong([dayjs('2026-01-01'), dayjs('2026-07-01')])).toBe(true);
  });

  it('splits the trees into provinces/areas and product levels, and puts dates and channels on the chosen user category', () => {
    const query = toQuery(
      {
        utype: 1,
        CUsertype: 2,
        userId: ' 13800000000 ',
        days: [dayjs('2026-03-01'), dayjs('2026-03-31')],
        channels: ['C01'],
        areas: ['广东', '杭州'],
        products: ['t1:1', 't2:12', 'p:900101'],
        outputs: ['outputSpid'],
        addOn: ['fetchflag2'],
        months: [dayjs('2026-01-01'), dayjs('2026-03-01')],
      },
      new Set(['广东']),
    );
    expect(query).toMatchObject({
      userId: '13800000000',
      cancelDayStart: '20260301',
      cancelDayEnd: '20260331',
      orderDayStart: undefined,
      cancelChannel: ['C01'],
      orderChannel: [],
      province: ['广东'],
      area: ['杭州'],
      cpType: ['1'],
      fullCptype: ['12'],
      spid: ['900101'],
      outputSpid: 1,
      outputSpname: 0,
      fetchflag2: 1,
      monthStart: '202601',
      monthEnd: '202603',
    });
    expect(orderQuerySchema.safeParse(query).success).toBe(true);
    expect(productLevels(Array.from({ length: 11 }, (_, i) => `p:${i}`)).spids).toHaveLength(11);
  });
});
