import { describe, expect, it } from 'vitest';
import { exportCreateSchema, exportFileName } from './index.ts';

describe('export file names', () => {
  it('trims, replaces characters illegal in file names and appends .xlsx once', () => {
    expect(exportFileName('  销售/明细:2026*  ', '订单明细')).toBe('销售_明细_2026_.xlsx');
    expect(exportFileName('报表.XLSX', '订单明细')).toBe('报表.xlsx');
    expect(exportFileName('a\tb', '订单明细')).toBe('a_b.xlsx');
  });

  it('falls back to the chart title, then to 导出数据', () => {
    expect(exportFileName('   ', '订单明细')).toBe('订单明细.xlsx');
    expect(exportFileName(null, '')).toBe('导出数据.xlsx');
  });

  it('refuses names longer than 100 characters, without the extension', () => {
    const base = { boardId: 1, chartKey: 'd1' };
    expect(exportCreateSchema.safeParse({ ...base, fileName: `${'长'.repeat(100)}.xlsx` }).success).toBe(true);
    const long = exportCreateSchema.safeParse({ ...base, fileName: '长'.repeat(101) });
    expect(long.error?.issues[0]?.message).toBe('文件名最多 100 个字符');
  });
});
