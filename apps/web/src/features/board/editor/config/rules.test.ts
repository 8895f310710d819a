import { describe, expect, it } from 'vitest';
import type { Chart } from '@shutu/contracts';
import { configField, configChart } from './test-fixtures.ts';
import {
  addField,
  addLink,
  changeDataset,
  drivenBy,
  driverCandidates,
  emptyConfig,
  moveItem,
  newLink,
  parseLimit,
  patchItem,
  removeItem,
  ruleProblems,
  setFormat,
  sortChoices,
  suggestLinkKey,
  type DataConfig,
} from './rules.ts';

const region = configField(1, '区域');
const day = configField(2, '下单日期', { viewDataType: 'DATETIME' });
const amount = configField(3, '金额', { dimensionType: 'ZHIBIAO', viewDataType: 'NUMBER', aggregationType: 'SUM' });
const customer = configField(4, '客户', { aggregationType: 'SUM' });

const added = (r: ReturnType<typeof addField>): DataConfig => {
  if (!r.ok) throw new Error(r.reason);
  return r.config;
};

describe('chart config rules', () => {
  it('adds dimensions and measures with the field defaults', () => {
    let c = added(addField('bar', emptyConfig(7), 'rows', region));
    c = added(addField('bar', c, 'measures', amount));
    expect(c).toMatchObject({
      cubeId: 7,
      rowParamList: [{ fieldId: 1, title: null, granularity: null }],
      indexParamList: [{ fieldId: 3, aggregation: 'SUM' }],
    });
    // a text field as a measure cannot be summed: it is counted
    c = added(addField('bar', c, 'measures', customer));
    expect(c.indexParamList[1]).toEqual({ fieldId: 4, title: null, aggregation: 'COUNT' });
  });

  it('refuses beyond the type rule with a Chinese reason', () => {
    const pie = added(addField('pie', added(addField('pie', emptyConfig(7), 'rows', region)), 'measures', amount));
    expect(addField('pie', pie, 'measures', amount)).toEqual({ ok: false, reason: '饼图最多 1 个指标' });
    expect(addField('pie', pie, 'rows', day)).toEqual({ ok: false, reason: '饼图最多 1 个维度' });
    expect(addField('card', emptyConfig(7), 'rows', region)).toMatchObject({ ok: false, reason: '指标卡不使用维度' });
    expect(addField('filterDate', emptyConfig(7), 'rows', region)).toEqual({ ok: false, reason: '日期筛选只能使用日期类型的维度' });
    expect(addField('table', added(addField('table', emptyConfig(7), 'rows', region)), 'rows', region)).toEqual({ ok: false, reason: '该字段已在维度中' });
    expect(addField('bar', added(addField('bar', emptyConfig(7), 'columns', region)), 'columns', day)).toEqual({
      ok: false,
      reason: '柱状图最多 1 个系列（列维度）',
    });
  });

  it('reorders, renames and removes; a removed measure takes its sort along', () => {
    let c = added(addField('table', emptyConfig(7), 'rows', region));
    c = added(addField('table', c, 'rows', day));
    c = moveItem(c, 'rows', 1, -1);
    expect(c.rowParamList.map((d) => d.fieldId)).toEqual([2, 1]);
    expect(moveItem(c, 'rows', 0, -1)).toBe(c);
    c = patchItem(c, 'rows', 0, { title: '日期', granularity: 'MONTH' });
    expect(c.rowParamList[0]).toEqual({ fieldId: 2, title: '日期', granularity: 'MONTH' });
    expect(patchItem(c, 'rows', 0, { title: '  ' }).rowParamList[0]!.title).toBeNull();

    c = added(addField('table', c, 'measures', amount));
    c = { ...c, sortList: [{ fieldId: 3, aggregation: 'SUM', direction: 'DESC' }] };
    const avg = patchItem(c, 'measures', 0, { aggregation: 'AVG' });
    expect(avg.indexParamList[0]!.aggregation).toBe('AVG');
    expect(avg.sortList).toEqual([{ fieldId: 3, aggregation: 'AVG', direction: 'DESC' }]);
    expect(removeItem(avg, 'measures', 0).sortList).toEqual([]);
    expect(sortChoices(avg).map((s) => s.value)).toEqual(['2:', '1:', '3:AVG']);
  });

  it('reports a config that breaks its type after a type change', () => {
    const c: DataConfig = { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], indexParamList: [{ fieldId: 3 }, { fieldId: 4 }] };
    expect(ruleProblems('pie', c)).toEqual(['饼图最多 1 个指标，请删除多余的']);
    expect(ruleProblems('card', c)).toEqual(['指标卡不使用维度']);
    expect(ruleProblems('table', c)).toEqual([]);
  });

  it('checks the limit as typed', () => {
    expect(parseLimit('')).toEqual({ ok: true, value: null });
    expect(parseLimit(' 500 ')).toEqual({ ok: true, value: 500 });
    expect(parseLimit('0')).toEqual({ ok: false, error: '请输入 1 到 10000 之间的整数' });
    expect(parseLimit('10001')).toMatchObject({ ok: false });
    expect(parseLimit('1.5')).toMatchObject({ ok: false });
  });

  it('changing the dataset drops every field reference but keeps display options', () => {
    const chart = configChart('bar', {
      dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }], limit: 50 },
      option: { colors: ['#000000'], formats: { 3: '0.00' } },
      ext: { filterList: [newLink('f1', 1)] },
    });
    const next = changeDataset(chart, 9);
    expect(next.dataconfig).toEqual({ ...emptyConfig(9), limit: 50 });
    expect(next.option).toEqual({ colors: ['#000000'] });
    expect(next.ext.filterList).toEqual([]);
  });

  it('sets and removes number formats', () => {
    let chart = setFormat(configChart('bar'), 3, '#,##0', 'AUTO');
    expect(chart.option.formats).toEqual({ 3: '#,##0' });
    chart = setFormat(chart, 3, 'AUTO', 'AUTO');
    expect('formats' in chart.option).toBe(false);
  });

  it('links: candidates, suggested field, the link written, and whom a control drives', () => {
    const filter = configChart('filterSelect', { key: 'f1', title: '区域筛选', dataconfig: { ...emptyConfig(8), rowParamList: [{ fieldId: 50 }] } });
    const pie = configChart('pie', { key: 'p1', title: '区域占比', dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1 }] } });
    const text = configChart('text', { key: 't1' });
    const target = configChart('table', { key: 'c1', dataconfig: emptyConfig(7) });
    const charts: Chart[] = [filter, pie, text, target];
    expect(driverCandidates(target, charts).map((c) => c.key)).toEqual(['f1', 'p1']);

    const fields = [region, day, amount];
    // another dataset: matched by the driver's field title
    expect(suggestLinkKey(filter, 7, fields, '区域')).toBe(1);
    expect(suggestLinkKey(filter, 7, fields, '城市')).toBeNull();
    // the same dataset: the same field
    expect(suggestLinkKey(pie, 7, fields, null)).toBe(1);

    const linked = addLink(target, newLink('f1', 1));
    expect(linked.ext.filterList).toEqual([{ linkFrom: 'f1', linkKey: 1, linkFlag: true, beginFlag: false, linkSet: true }]);
    expect(driverCandidates(linked, [...charts, linked]).map((c) => c.key)).toEqual(['p1']);
    expect(drivenBy(filter, [filter, pie, linked]).map((d) => [d.chart.key, d.enabled])).toEqual([['c1', true]]);
  });
});
