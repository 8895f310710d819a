import { z } from 'zod';
import { tagMessages } from './tag-constants.ts';

export * from './tag-constants.ts';

/**
 * User tags (spec 1 §2.3, §2.4, §3 "Tag", §4 "Tag ratio chart", §7 "Tags"), the tag-driven audience
 * (spec 3 §2 "Audience editor (tag-driven)", §3 "Tag-driven audience", §4, §5, §9) and the
 * user-profile comparison (spec 3 §2, §7). Issue 18 part B; docs/tags.md.
 */

/** Bars are at most this wide; a chart with more points opens zoomed to the first ones (spec 1 §9, spec 3 §9). */
export const TAG_BAR_MAX_WIDTH = 30;
export const TAG_ZOOM_POINTS = 10;
/** Months a ratio request steps back at most when a month has no data (spec 1 §4). */
export const TAG_RATIO_MAX_STEPS = 24;
export const TAG_MONTH_SPAN_MAX = 36;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const tagMonthSchema = z.string().regex(MONTH, tagMessages.monthFormat);

export const tagSchema = z.object({
  tagId: z.number(),
  tagName: z.string(),
  level1Name: z.string(),
  level2Name: z.string(),
  /** basic / product / network / algorithm. */
  tagGroup: z.string(),
  userType: z.string(),
  tagDesc: z.string(),
  tagType: z.number(),
  developType: z.number(),
  exclusion: z.number(),
  isOnline: z.number(),
});
export type Tag = z.infer<typeof tagSchema>;

/** Tag ids are INTEGER in the warehouse. */
const tagIdSchema = z.coerce.number().int().positive().max(2_147_483_647);
export const tagIdQuerySchema = z.object({ tagId: tagIdSchema });
export const tagRatioQuerySchema = z.object({ tagId: tagIdSchema, dataDate: tagMonthSchema });
export const tagCountQuerySchema = z
  .object({ tagId: tagIdSchema, startDate: tagMonthSchema, endDate: tagMonthSchema })
  .refine((q) => q.startDate <= q.endDate, { message: tagMessages.rangeReversed, path: ['endDate'] })
  .refine((q) => monthsBetween(q.startDate, q.endDate) <= TAG_MONTH_SPAN_MAX, { message: tagMessages.rangeTooLong, path: ['endDate'] });

/** Ratio rows (spec 1 §3): one per tag of the chosen tag's level-2 group in one month. */
export const tagRatioRowSchema = z.object({ tagname: z.string(), tagid: z.number(), num: z.number() });
export type TagRatioRow = z.infer<typeof tagRatioRowSchema>;
/** Count rows (spec 1 §3): users holding the tag per month. */
export const tagCountRowSchema = z.object({ datadate: z.string(), num: z.number() });
export type TagCountRow = z.infer<typeof tagCountRowSchema>;

/** Months in [start, end], both yyyy-MM, ends included. */
export function monthsBetween(start: string, end: string): number {
  const [ys, ms] = start.split('-').map(Number) as [number, number];
  const [ye, me] = end.split('-').map(Number) as [number, number];
  return (ye - ys) * 12 + (me - ms) + 1;
}
/** The month `n` months before (negative: after) a yyyy-MM month. */
export function shiftMonth(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

// Option trees of the tag-driven editor (spec 3 §7 tagTree, tagTreeProduct, tagTreeCity, tagTreeChannel).

export interface TagTreeNode {
  value: string;
  title: string;
  children?: TagTreeNode[];
}
export const tagTreeNodeSchema: z.ZodType<TagTreeNode> = z
  .object({
    value: z.string(),
    title: z.string(),
    get children() {
      return z.array(tagTreeNodeSchema).optional();
    },
  })
  .meta({ id: 'TagTreeNode' });
/** linkup: level 1 → level 2 → tag; linkup_area: province → city; linkup_channel: belonging → channel. */
export const TAG_TREE_TYPES = ['linkup', 'linkup_area', 'linkup_channel'] as const;
export type TagTreeType = (typeof TAG_TREE_TYPES)[number];
export const tagTreeQuerySchema = z.object({ type: z.enum(TAG_TREE_TYPES) });
/** Tag groups of the editor's library (spec 3 §2). */
export const TAG_GROUPS = { product: '产品', network: '网络', algorithm: '算法' } as const;
export type TagGroupKey = keyof typeof TAG_GROUPS;

// Tag-driven audience rules (spec 3 §3 "Tag-driven audience", §5 "Filter trees", §9).

/**
 * What a rule selects on: orders of chosen products (product tree) or through chosen channels
 * (linkup_channel), holders of chosen tags (linkup), the monthly app-use range (1-6), the user's
 * province or city (linkup_area).
 */
export const TAG_RULE_TYPES = ['product', 'channel', 'tag', 'appuse', 'area'] as const;
export type TagRuleType = (typeof TAG_RULE_TYPES)[number];
export const NUMBER_FUNCS = ['eq', 'gt', 'ge', 'lt', 'le'] as const;
export const TEXT_FUNCS = ['eq', 'like'] as const;
/** The measure each rule type's conditions compare (number) or the text they match. */
export const RULE_MEASURES: Record<TagRuleType, { kind: 'number' | 'text' | 'none'; label: string }> = {
  product: { kind: 'number', label: '订购次数' },
  channel: { kind: 'number', label: '订购次数' },
  tag: { kind: 'none', label: '' },
  appuse: { kind: 'number', label: '月均流量(G)' },
  area: { kind: 'text', label: '地市名称' },
};
/** App-use ranges (spec 3 §9), in MB as the warehouse's flow (1G = 1000MB, as its 月流量使用 tags). */
export const APP_USE_RANGES = {
  1: { label: '0.1G-0.5G', low: 100, high: 500 },
  2: { label: '0.5G-2G', low: 500, high: 2000 },
  3: { label: '2G-5G', low: 2000, high: 5000 },
  4: { label: '5G-10G', low: 5000, high: 10000 },
  5: { label: '10G-20G', low: 10000, high: 20000 },
  6: { label: '20G以上', low: 20000, high: null },
} as const;
/** The initial rules: ordered-product, order-channel, product-order-status, app-use (spec 3 §2). */
export const INITIAL_TAG_RULES: readonly { level2name: string; type: TagRuleType }[] = [
  { level2name: '订购产品', type: 'product' },
  { level2name: '订购渠道', type: 'channel' },
  { level2name: '产品订购状态', type: 'tag' },
  { level2name: 'APP使用', type: 'appuse' },
];

export const tagConditionSchema = z.object({
  func: z.enum(['eq', 'gt', 'ge', 'lt', 'le', 'like']),
  val: z.string().trim().max(100),
});
export type TagCondition = z.infer<typeof tagConditionSchema>;
const monthRange = z
  .tuple([tagMonthSchema, tagMonthSchema])
  .refine(([a, b]) => a <= b, { message: tagMessages.rangeReversed })
  .refine(([a, b]) => monthsBetween(a, b) <= TAG_MONTH_SPAN_MAX, { message: tagMessages.rangeTooLong });
export const tagRuleDetailSchema = z.object({
  level2name: z.string().trim().min(1).max(50),
  type: z.enum(TAG_RULE_TYPES),
  values: z.array(z.string().trim().min(1).max(100)).max(500),
  /** The rule's own month range; null: the rules' daterange. */
  date: monthRange.nullable().default(null),
  conditions: z.array(tagConditionSchema).max(10).default([]),
});
export type TagRuleDetail = z.infer<typeof tagRuleDetailSchema>;
export const tagRulesSchema = z.object({
  relationship: z.enum(['and', 'or']),
  daterange: monthRange,
  ruledetails: z.array(tagRuleDetailSchema).min(1, tagMessages.rulesRequired).max(20),
});
export type TagRules = z.infer<typeof tagRulesSchema>;

export const tagAudienceSaveSchema = z
  .object({
    id: z.number().int().positive().optional(),
    groupName: z.string({ error: tagMessages.groupNameRequired }).trim().min(1, tagMessages.groupNameRequired).max(50),
    groupUse: z.union([z.literal(0), z.literal(1)]).default(0),
    importId: z.number().int().positive().nullable().default(null),
    defaultShow: z.boolean().default(false),
    /** Refreshed on this schedule like a dataset audience (0 on save only, 1 daily, 2 weekly, 3 monthly). */
    requestFreq: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).default(0),
    /** 1 in use, 2 stopped (not refreshed by its schedule). */
    isOnline: z.union([z.literal(1), z.literal(2)]).default(1),
    rules: tagRulesSchema,
    startAnalyseDate: tagMonthSchema,
    endAnalyseDate: tagMonthSchema,
  })
  .refine((q) => q.startAnalyseDate <= q.endAnalyseDate, { message: tagMessages.rangeReversed, path: ['endAnalyseDate'] });
export type TagAudienceSave = z.infer<typeof tagAudienceSaveSchema>;
/** A saved tag-driven audience as the editor reloads it. */
export const tagAudienceViewSchema = z.object({
  id: z.number(),
  groupName: z.string(),
  groupUse: z.union([z.literal(0), z.literal(1)]),
  importId: z.number().nullable(),
  defaultShow: z.boolean(),
  requestFreq: z.number(),
  isOnline: z.number(),
  rules: tagRulesSchema,
  startAnalyseDate: z.string(),
  endAnalyseDate: z.string(),
  size: z.number(),
  status: z.string(),
});
export type TagAudienceView = z.infer<typeof tagAudienceViewSchema>;

// User-profile comparison (spec 3 §2, §7).

export const PROFILE_COMPARE_MAX = 6;
export const profileCompareQuerySchema = z.object({
  /** The kind of audience the page offers (dataset / tag / import); all when absent. */
  type: z.string().max(20).optional(),
  /** The two audiences of the difference view (default: the first two of `id`). */
  diffA: z.coerce.number().int().positive().optional(),
  diffB: z.coerce.number().int().positive().optional(),
  id: z
    .string()
    .max(400)
    .transform((s, c) => {
      const ids = [
        ...new Set(
          s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
        ),
      ].map(Number);
      if (ids.length === 0 || ids.some((n) => !Number.isInteger(n) || n <= 0)) {
        c.addIssue({ code: 'custom', message: tagMessages.compareNeedsGroups });
        return z.NEVER;
      }
      if (ids.length > PROFILE_COMPARE_MAX) {
        c.addIssue({ code: 'custom', message: tagMessages.compareTooMany.replace('{max}', String(PROFILE_COMPARE_MAX)) });
        return z.NEVER;
      }
      return ids;
    }),
});
const share = z.object({ name: z.string(), num: z.number() });
export type ProfileShare = z.infer<typeof share>;
export const profileStatsSchema = z.object({
  id: z.number(),
  groupName: z.string(),
  size: z.number(),
  /** The analysis months the mix and usage are computed over. */
  startAnalyseDate: z.string(),
  endAnalyseDate: z.string(),
  provinces: z.array(share),
  areas: z.array(share),
  products: z.array(share),
  channels: z.array(share),
  usage: z.array(share),
  tags: z.array(share),
});
export type ProfileStats = z.infer<typeof profileStatsSchema>;
export const profileDiffSchema = z.object({
  a: z.number(),
  b: z.number(),
  both: z.number(),
  onlyA: z.number(),
  onlyB: z.number(),
});
export type ProfileDiff = z.infer<typeof profileDiffSchema>;
export const profileCompareSchema = z.object({ groups: z.array(profileStatsSchema), diff: profileDiffSchema.nullable() });
export type ProfileCompare = z.infer<typeof profileCompareSchema>;

export { TAG_PATHS } from './constants.ts';
