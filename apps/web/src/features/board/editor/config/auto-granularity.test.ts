import { describe, expect, it } from 'vitest';
import type { ChartDataResult, DatasetField } from '@shutu/contracts';
import { autoUnits, hasAutoTime } from './auto-granularity.ts';
import type { DataConfig } from './rules.ts';

const config = (rows: DataConfig['rowParamList'], columns: DataConfig['columnParamList'] = []): DataConfig => ({
  cubeId: 1,
  rowParamList: rows,
  columnParamList: columns,
  indexParamList: [{ fieldId: 3 }],
  sortList: [],
});
const field = (id: number, viewDataType: DatasetField['viewDataType']) => ({ id, viewDataType }) as DatasetField;
const fields = [field(1, 'STRING'), field(2, 'DATETIME'), field(3, 'NUMBER')];
const dim = (alias: string, fieldId: number, granularity: ChartDataResult['fieldDict'][number]['granularity']) => ({
  alias,
  fieldId,
  title: '',
  viewDataType: 'DATETIME' as const,
  kind: 'dimension' as const,
  aggregation: null,
  granularity,
});

describe('the unit 自动 stands for', () => {
  it('asks only when a date dimension is left on 自动', () => {
    expect(hasAutoTime(config([{ fieldId: 2 }]), fields)).toBe(true);
    expect(hasAutoTime(config([{ fieldId: 1 }], [{ fieldId: 2, granularity: 'DAY' }]), fields)).toBe(false);
    expect(hasAutoTime(config([{ fieldId: 1 }], [{ fieldId: 2 }]), fields)).toBe(true);
    expect(hasAutoTime(config([{ fieldId: 2 }]), undefined)).toBe(false);
  });

  it('reads the server’s choice per row and column dimension; a chosen unit or another answer shows none', () => {
    const answer = { fieldDict: [dim('d0', 1, null), dim('d1', 2, 'MONTH'), dim('d2', 2, 'DAY')] };
    expect(autoUnits(config([{ fieldId: 1 }, { fieldId: 2 }], [{ fieldId: 2, granularity: 'DAY' }]), answer)).toEqual({
      rows: [null, 'MONTH'],
      columns: [null],
    });
    // A previous answer (another field in that place) is not read as this one's.
    expect(autoUnits(config([{ fieldId: 1 }, { fieldId: 5 }]), answer).rows).toEqual([null, null]);
    expect(autoUnits(config([{ fieldId: 2 }]), null)).toEqual({ rows: [], columns: [] });
  });
});
