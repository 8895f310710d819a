import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tag } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { fetchRatioSteppingBack } from './api.ts';
import { initialRules, libraryEntries, newRule, ruleKey } from './editor-model.ts';

afterEach(() => vi.unstubAllGlobals());

const tag = (tagId: number, level2Name: string, tagGroup: string): Tag => ({
  tagId,
  tagName: `标签${tagId}`,
  level1Name: '一级',
  level2Name,
  tagGroup,
  userType: '个人用户',
  tagDesc: '',
  tagType: 1,
  developType: 2,
  exclusion: 1,
  isOnline: 1,
});

describe('tag detail: a month without data steps back (spec 1 §4)', () => {
  it('asks for the month before until one has rows, and says which', async () => {
    const calls = mockFetch((c) => (c.url.includes('dataDate=2026-09') ? ok([{ tagname: '高流失风险', tagid: 1026, num: 5 }]) : ok([])));
    const answer = await fetchRatioSteppingBack(1026, '2026-11');
    expect(answer).toEqual({ month: '2026-09', rows: [{ tagname: '高流失风险', tagid: 1026, num: 5 }] });
    expect(calls.map((c) => new URL(c.url, 'http://x').searchParams.get('dataDate'))).toEqual(['2026-11', '2026-10', '2026-09']);
  });

  it('steps across a year and gives up after 24 months with no rows', async () => {
    const calls = mockFetch(() => ok([]));
    const answer = await fetchRatioSteppingBack(1026, '2026-01');
    expect(answer).toEqual({ month: '2026-01', rows: [] });
    expect(calls).toHaveLength(25);
    expect(new URL(calls[1]!.url, 'http://x').searchParams.get('dataDate')).toBe('2025-12');
  });
});

describe('tag-driven editor model (spec 3 §2)', () => {
  it('opens with the four initial rules; order rules count at least one order', () => {
    expect(initialRules().map((r) => [r.level2name, r.type])).toEqual([
      ['订购产品', 'product'],
      ['订购渠道', 'channel'],
      ['产品订购状态', 'tag'],
      ['APP使用', 'appuse'],
    ]);
    expect(newRule({ level2name: '订购产品', type: 'product' }).conditions).toEqual([{ func: 'ge', val: '1' }]);
  });

  it('lists the product, network and algorithm groups only, a group named like an order rule kept apart', () => {
    const entries = libraryEntries([
      tag(1001, '性别', 'basic'),
      tag(1008, '订购产品', 'product'),
      tag(1026, '流失预警', 'algorithm'),
      tag(1027, '流失预警', 'algorithm'),
    ]);
    const keys = entries.map((e) => e.key);
    expect(keys).not.toContain('tag:性别');
    expect(keys).toContain('tag:订购产品偏好');
    expect(keys).toContain('product:订购产品');
    expect(entries.find((e) => e.key === 'tag:流失预警')!.tags!.map((t) => t.tagId)).toEqual([1026, 1027]);
    expect(ruleKey(newRule(entries.find((e) => e.key === 'tag:流失预警')!))).toBe('tag:流失预警');
  });
});
