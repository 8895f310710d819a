import type { ApiEnvelope, Page } from '@shutu/contracts';
import { zhCN } from '@shutu/contracts';

export function ok<T>(data: T, msg: string = zhCN.ok): ApiEnvelope<T> {
  return { code: 200, success: true, msg, data };
}

export function fail(code: number, msg: string, data: unknown = null): ApiEnvelope<unknown> {
  return { code, success: false, msg, data };
}

export function page<T>(records: T[], total: number, current: number, size: number): Page<T> {
  return { records, total, current, size };
}
