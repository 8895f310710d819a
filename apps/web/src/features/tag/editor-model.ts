import dayjs from 'dayjs';
import { INITIAL_TAG_RULES, RULE_MEASURES, type Tag, type TagGroupKey, type TagRuleDetail, type TagRuleType } from '@shutu/contracts';
import { tg } from './messages.ts';

/** One entry of the editor's tag library: a rule it adds when picked. */
export interface LibraryEntry {
  key: string;
  level2name: string;
  type: TagRuleType;
  group: TagGroupKey;
  /** Tag-kind entries: the tags of the level-2 group. */
  tags?: Tag[];
}

export const ruleKey = (r: Pick<TagRuleDetail, 'type' | 'level2name'>) => `${r.type}:${r.level2name}`;

const SPECIAL: LibraryEntry[] = [
  { key: 'product:订购产品', level2name: '订购产品', type: 'product', group: 'product' },
  { key: 'channel:订购渠道', level2name: '订购渠道', type: 'channel', group: 'product' },
  { key: 'appuse:APP使用', level2name: tg.appUse, type: 'appuse', group: 'network' },
  { key: 'area:地区', level2name: tg.area, type: 'area', group: 'network' },
];

/**
 * The library: the order, channel, app-use and area rules, then every level-2 tag group of the
 * product, network and algorithm groups (a group named like an order rule is kept apart as …偏好).
 */
export function libraryEntries(tags: readonly Tag[]): LibraryEntry[] {
  const groups = new Map<string, LibraryEntry>();
  for (const t of tags) {
    if (!(t.tagGroup in tg.groups)) continue;
    const taken = SPECIAL.some((s) => s.level2name === t.level2Name);
    const level2name = taken ? `${t.level2Name}偏好` : t.level2Name;
    const key = `tag:${level2name}`;
    const entry = groups.get(key) ?? { key, level2name, type: 'tag' as const, group: t.tagGroup as TagGroupKey, tags: [] };
    entry.tags!.push(t);
    groups.set(key, entry);
  }
  return [...SPECIAL, ...groups.values()];
}

/** The tag group's real level-2 name of a tag-kind entry (…偏好 names map back). */
export function tagsOf(entries: readonly LibraryEntry[], rule: Pick<TagRuleDetail, 'type' | 'level2name'>): Tag[] {
  return entries.find((e) => e.key === ruleKey(rule))?.tags ?? [];
}

export function newRule(entry: Pick<LibraryEntry, 'level2name' | 'type'>): TagRuleDetail {
  const kind = RULE_MEASURES[entry.type].kind;
  return {
    level2name: entry.level2name,
    type: entry.type,
    values: [],
    date: null,
    conditions: kind === 'number' && (entry.type === 'product' || entry.type === 'channel') ? [{ func: 'ge', val: '1' }] : [],
  };
}

/** The initial rules (spec 3 §2): ordered-product, order-channel, product-order-status, app-use. */
export const initialRules = (): TagRuleDetail[] => INITIAL_TAG_RULES.map((r) => newRule(r));

export const lastMonth = () => dayjs().subtract(1, 'month').format('YYYY-MM');
