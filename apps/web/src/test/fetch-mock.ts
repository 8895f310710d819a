import { vi } from 'vitest';

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

/** Replaces global fetch with `handler`; records every call. */
export function mockFetch(handler: Handler) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: (init?.headers as Record<string, string>) ?? {},
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const res = handler(call) ?? { status: 404, body: { code: 404, success: false, msg: '接口不存在', data: null } };
    return new Response(JSON.stringify(res.body), { status: res.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

export const ok = <T>(data: T, msg = '操作成功!') => ({ status: 200, body: { code: 200, success: true, msg, data } });
export const fail = (status: number, msg: string, data: unknown = null) => ({ status, body: { code: status, success: false, msg, data } });
