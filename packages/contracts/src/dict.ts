import { z } from 'zod';
import { zhCN } from './messages.ts';
import { optionalText, requiredText } from './common.ts';
import { MAX_PAGE_SIZE, pageQuerySchema } from './envelope.ts';

/** Spec 2 §3 "Dictionary (admin)". Parents have parentId 0; children carry their parent's id. */
export const dictSchema = z.object({
  id: z.number(),
  parentId: z.number(),
  code: z.string(),
  dictKey: z.number(),
  dictValue: z.string(),
  sort: z.number(),
  isSealed: z.number(),
  remark: z.string().nullable(),
  childCount: z.number().optional(),
});
export type Dict = z.infer<typeof dictSchema>;

/** Page-size options of the manager (spec 2 §9); the manager starts at 5. */
export const DICT_PAGE_SIZES = [5, 10, 30, 50, 100, 200] as const;
export const DICT_DEFAULT_PAGE_SIZE = 5;

const requiredInt = (message: string) => z.number({ error: message }).int(message).min(-2147483648, message).max(2147483647, message);

export const dictSaveSchema = z.object({
  parentId: z.number().int().min(0).default(0),
  code: requiredText(zhCN.dictCodeRequired, 64),
  dictKey: requiredInt(zhCN.dictKeyRequired),
  dictValue: requiredText(zhCN.dictValueRequired, 100),
  sort: requiredInt(zhCN.dictSortRequired),
  isSealed: z.union([z.literal(0), z.literal(1)], { error: zhCN.dictSealedRequired }),
  remark: optionalText(255),
});
export type DictSave = z.input<typeof dictSaveSchema>;

export const dictParentQuerySchema = pageQuerySchema.extend({
  size: z.coerce.number().int().min(1).max(10000).default(DICT_DEFAULT_PAGE_SIZE),
  query: z.string().trim().max(100).optional(),
});
export const dictChildQuerySchema = dictParentQuerySchema.extend({
  parentId: z.coerce.number().int().positive(),
});
export type DictParentQuery = z.input<typeof dictParentQuerySchema>;
export type DictChildQuery = z.input<typeof dictChildQuerySchema>;

/** Batch delete: idsBodySchema's shape, with the spec's message also when `ids` is missing. */
export const dictRemoveSchema = z.object({
  ids: z.array(z.coerce.number().int().positive(), { error: zhCN.dictSelectAtLeastOne }).min(1, zhCN.dictSelectAtLeastOne).max(MAX_PAGE_SIZE),
});
export type DictRemove = z.input<typeof dictRemoveSchema>;
