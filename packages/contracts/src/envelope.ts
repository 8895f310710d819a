import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants.ts';

/** Every response body: `{ code, success, msg, data }`. `code` mirrors the HTTP status. */
export interface ApiEnvelope<T> {
  code: number;
  success: boolean;
  msg: string;
  data: T;
}

export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

export { MAX_PAGE_SIZE } from './constants.ts';

export const pageQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), success: z.boolean(), msg: z.string(), data });
}

export function pageSchema<T extends z.ZodType>(record: T) {
  return z.object({ records: z.array(record), total: z.number(), current: z.number(), size: z.number() });
}

/** One field that failed validation, as returned in `data.fields` of a 400. */
export interface FieldError {
  field: string;
  message: string;
}

export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });
export const idsBodySchema = z.object({
  ids: z.array(z.coerce.number().int().positive()).min(1, '请选择至少一条数据').max(MAX_PAGE_SIZE),
});
