import type { ApiEnvelope, FieldError } from '@shutu/contracts';
// The zod-free subpath: this module is part of the entry that draws /login (issue 26).
import { API } from '@shutu/contracts/api';
import { msg, t } from './messages.ts';

const TOKEN_KEY = 'shutu.token';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * A token that replaces the stored session for every call while set: /openview/{id}?token=
 * (the iframe and server-rendered preview) uses the token of its address without touching
 * the user's own session, and its 401 does not send anyone to the login page.
 */
let tokenOverride: string | null = null;

export function setTokenOverride(token: string | null): void {
  tokenOverride = token;
}

/** The bearer token calls send: the override, else the stored session (also for streamed calls: board/runtime/useBoardBatch.ts). */
export function authToken(): string | null {
  return tokenOverride ?? getToken();
}

/** A failed call: HTTP status (0 when the network failed), the server's msg and its field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly fields: FieldError[];
  readonly data: unknown;

  constructor(status: number, message: string, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
    const fields = (data as { fields?: unknown } | null)?.fields;
    this.fields = Array.isArray(fields) ? (fields as FieldError[]) : [];
  }
}

/** Where a 401 sends the user: the login page, remembering the current address. */
export function loginPath(current: string = currentLocation()): string {
  if (!current || current === '/' || current.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(current)}`;
}

function currentLocation(): string {
  return typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}`;
}

type UnauthorizedHandler = (loginUrl: string) => void;
let unauthorizedHandler: UnauthorizedHandler = (url) => window.location.assign(url);

/** The router installs a handler that navigates without reloading the page. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

/** What a 403 请先修改初始密码 does: the router opens the 修改初始密码 page. */
let passwordChangeHandler: () => void = () => undefined;

export function setPasswordChangeHandler(handler: () => void): void {
  passwordChangeHandler = handler;
}

/** What index.html's first script (src/boot/early.js) fetched before the app's script arrived. */
interface EarlyResponses {
  take(url: string, token: string | null): Promise<Response> | null;
}

/**
 * What the page's first script already asked for under `key` with the same token, taken once: null
 * at once when there is none (the caller sends its own request without waiting a microtask), null
 * later when that early request failed, so the caller asks again itself.
 */
function takeEarly(key: string, token: string | null): Promise<Response | null> | null {
  const early = (globalThis as { __shutuEarly?: EarlyResponses }).__shutuEarly?.take(key, token);
  return early
    ? early.then(
        (response) => response,
        () => null,
      )
    : null;
}

/**
 * The streamed answer of the board's first data (POST chart-data/batch without `charts`, each
 * chart read alone) that early.js asked for on /m/app/{id} and /newbi/preview/{id}.
 */
export function takeEarlyBatch(boardId: number, token: string | null): Promise<Response | null> | null {
  return takeEarly(`POST ${API.board.chartDataBatch} ${boardId}`, token);
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** false for calls whose 401 means something else (login) or does not matter (logout). */
  authRedirect?: boolean;
}

export interface ApiResult<T> {
  data: T;
  msg: string;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Calls the API and unwraps the `{code, success, msg, data}` envelope; throws ApiError on failure. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = authToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    const url = withQuery(path, options.query);
    const method = options.method ?? 'GET';
    response =
      (method === 'GET' && (await takeEarly(url, token))) ||
      (await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }));
  } catch {
    throw new ApiError(0, t.networkError);
  }

  let envelope: Partial<ApiEnvelope<T>> | null;
  try {
    envelope = (await response.json()) as Partial<ApiEnvelope<T>>;
  } catch {
    envelope = null; // not JSON: a proxy error page, say
  }

  const failed = !response.ok || !envelope || envelope.success === false;
  if (failed) {
    const status = response.ok ? (envelope?.code ?? 500) : response.status;
    const message = envelope?.msg || fallbackMessage(status);
    if (status === 401 && options.authRedirect !== false && tokenOverride === null) {
      clearToken();
      unauthorizedHandler(loginPath());
    }
    if (status === 403 && message === msg.passwordChangeRequired && tokenOverride === null) passwordChangeHandler();
    throw new ApiError(status, message, envelope?.data ?? null);
  }
  return { data: envelope!.data as T, msg: envelope!.msg ?? '' };
}

function fallbackMessage(status: number): string {
  if (status === 401) return msg.unauthorized;
  if (status === 403) return msg.forbidden;
  if (status === 404) return msg.notFound;
  if (status === 429) return msg.tooManyRequests;
  if (status >= 500) return msg.serverError;
  return msg.badRequest;
}

/** Shorthands that return only `data`. */
export const http = {
  get: <T>(path: string, query?: Query) => request<T>(path, { query }).then((r) => r.data),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body: body ?? {} }).then((r) => r.data),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body: body ?? {} }).then((r) => r.data),
  del: <T>(path: string) => request<T>(path, { method: 'DELETE' }).then((r) => r.data),
};

export { API };

/**
 * Saves a file the API serves behind the bearer token, which a plain link cannot send: it is
 * fetched as a blob with the token header (the override when set) and saved through a
 * temporary object URL under `fileName`. Throws ApiError with the server's msg, or
 * `failedMessage`, when it cannot.
 */
export async function download(path: string, fileName: string, failedMessage: string, token: string | null = authToken()): Promise<void> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { headers });
  } catch {
    throw new ApiError(0, failedMessage);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { msg?: string } | null;
    throw new ApiError(response.status, body?.msg || failedMessage);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: the browser reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Sends `formData` as multipart (the browser sets the boundary) with the token header, and
 * unwraps the envelope like `request`; throws ApiError on failure.
 */
export async function upload<T>(path: string, formData: FormData): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = authToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers, body: formData });
  } catch {
    throw new ApiError(0, t.networkError);
  }

  let envelope: Partial<ApiEnvelope<T>> | null;
  try {
    envelope = (await response.json()) as Partial<ApiEnvelope<T>>;
  } catch {
    envelope = null;
  }

  if (!response.ok || !envelope || envelope.success === false) {
    const status = response.ok ? (envelope?.code ?? 500) : response.status;
    if (status === 401 && tokenOverride === null) {
      clearToken();
      unauthorizedHandler(loginPath());
    }
    if (status === 403 && envelope?.msg === msg.passwordChangeRequired && tokenOverride === null) passwordChangeHandler();
    throw new ApiError(status, envelope?.msg || fallbackMessage(status), envelope?.data ?? null);
  }
  return { data: envelope.data as T, msg: envelope.msg ?? '' };
}
