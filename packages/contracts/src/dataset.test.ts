import { describe, expect, it } from 'vitest';
import {
  cubeCategorySaveSchema,
  cubePermFilterSaveSchema,
  datasetFieldSaveSchema,
  datasetSaveSchema,
  dedupeFieldTitle,
  defaultPermFilterName,
  encodeBase64Json,
  isSavedFieldId,
  tableTypeOf,
} from './index.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('dataset contracts', () => {
  it('names default permission filters 一号过滤器, then {count}-新增过滤器', () => {
    expect([0, 1, 2, 5].map(defaultPermFilterName)).toEqual(['一号过滤器', '2-新增过滤器', '3-新增过滤器', '6-新增过滤器']);
  });

  it('titles a duplicate field with 1 appended, hidden when its type equals the earlier one', () => {
    const existing = [
      { columnTitle: '省份', viewDataType: 'STRING' as const },
      { columnTitle: '省份1', viewDataType: 'STRING' as const },
    ];
    expect(dedupeFieldTitle('城市', 'STRING', existing)).toEqual({ columnTitle: '城市', hiddenStatus: 0 });
    expect(dedupeFieldTitle('省份', 'STRING', existing)).toEqual({ columnTitle: '省份11', hiddenStatus: 1 });
    expect(dedupeFieldTitle('省份', 'NUMBER', existing)).toEqual({ columnTitle: '省份11', hiddenStatus: 0 });
  });

  it('gives fields the spec’s defaults and tells saved ids from temporary ones', () => {
    const field = datasetFieldSaveSchema.parse({ id: 'tmp_1', columnTitle: '金额', columnName: 'amount', tableAliasName: 'o', numberDataFormat: '' });
    expect(field).toMatchObject({
      columnAttr: 'NORMAL',
      dimensionType: 'WEIDU',
      viewDataType: 'STRING',
      aggregationType: 'SUM',
      numberDataFormat: 'AUTO',
      timeDataFormat: 'yyyy_MM_ddhh$mm$ss',
      hiddenStatus: 0,
      virtualAggregationStatus: 0,
    });
    expect([12, '12', 'tmp_1', 'a12'].map((id) => isSavedFieldId(id))).toEqual([true, true, false, false]);
    expect(tableTypeOf([])).toBe('PHYSICS');
    expect(tableTypeOf([{}])).toBe('LOGIC');
  });

  it('checks a save in the spec’s order and reads the lists kept as JSON text', () => {
    const payload = {
      cubeData: { cubeName: '', workspaceId: 0, cubeTableNames: '[{"tableName":"orders","tableAliasName":"o"}]', linksJoin: '' },
      datasourceId: 1,
      columnList: [],
    };
    expect(firstMessage(datasetSaveSchema.safeParse(payload))).toBe('请填写名称');
    expect(firstMessage(datasetSaveSchema.safeParse({ ...payload, cubeData: { ...payload.cubeData, cubeName: '数据集' } }))).toBe('请选择分类');
    const ok = datasetSaveSchema.parse({ payload: encodeBase64Json({ ...payload, cubeData: { ...payload.cubeData, cubeName: '数据集', workspaceId: 3 } }) });
    expect(ok.cubeData.cubeTableNames).toEqual([{ tableName: 'orders', tableAliasName: 'o' }]);
    expect(ok.cubeData.linksJoin).toEqual([]);
    expect(ok.orderByList).toEqual([]);
  });

  it('reads excluded columns as comma text or a list', () => {
    const base = { cubeDataId: 1, dataPermId: 2, cubePermName: '一号过滤器' };
    expect(cubePermFilterSaveSchema.parse({ ...base, excludeColumnIds: ' 3, 5,,3' }).excludeColumnIds).toEqual([3, 5]);
    expect(cubePermFilterSaveSchema.parse({ ...base, excludeColumnIds: [4, '6'] }).excludeColumnIds).toEqual([4, 6]);
    expect(cubePermFilterSaveSchema.parse(base).excludeColumnIds).toEqual([]);
    expect(firstMessage(cubePermFilterSaveSchema.safeParse({ ...base, excludeColumnIds: '3,x' }))).toBe('排除字段须为逗号分隔的字段编号');
    expect(firstMessage(cubePermFilterSaveSchema.safeParse({ ...base, dataPermId: undefined }))).toBe('请选择权限组');
  });

  it('asks for a category name', () => {
    expect(firstMessage(cubeCategorySaveSchema.safeParse({ wsName: ' ' }))).toBe('请填写分类名');
  });
});
