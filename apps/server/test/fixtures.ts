import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { md5Hex } from '../src/platform/auth/password.ts';
import type { TestServer } from './harness.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Call {
  status: number;
  // Tests read response data loosely, as `res.json()` does.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: { code: number; success: boolean; msg: string; data: any };
  raw: LightMyRequestResponse;
}

/** One API call through `inject`, body parsed as the envelope. */
export async function call(
  server: TestServer,
  method: Method,
  url: string,
  options: { headers?: Record<string, string>; payload?: unknown; query?: Record<string, string | number> } = {},
): Promise<Call> {
  const request: InjectOptions = { method, url, headers: options.headers ?? {} };
  if (options.payload !== undefined) request.payload = options.payload as InjectOptions['payload'];
  if (options.query) request.query = Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)]));
  const raw = await server.app.inject(request);
  return { status: raw.statusCode, body: raw.json(), raw };
}

/** The id of the built-in warehouse's data source, as the data-source list shows it to `headers`' user. */
export async function builtinSourceId(server: TestServer, headers: Record<string, string>): Promise<number> {
  const sources = await call(server, 'GET', '/api/datasource', { headers, query: { size: 100 } });
  return sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id as number;
}

let counter = 0;

/** A fresh, unique account name for a test. */
export const uniqueAccount = (prefix = 'user') => `${prefix}_${Date.now().toString(36)}_${++counter}`;

export interface CreatedUser {
  id: number;
  account: string;
  password: string;
}

/** Creates a user through the API as the given administrator. */
export async function createUser(
  server: TestServer,
  adminHeaders: Record<string, string>,
  fields: Record<string, unknown> = {},
  password = 'secret123',
): Promise<CreatedUser> {
  const account = (fields.account as string | undefined) ?? uniqueAccount();
  const res = await call(server, 'POST', '/api/org/users', {
    headers: adminHeaders,
    payload: { name: account, ...fields, account, password: md5Hex(password) },
  });
  if (res.status !== 200) throw new Error(`create user ${account} failed: ${res.status} ${res.raw.body}`);
  return { id: res.body.data.id, account, password };
}

/** Creates a role with the given permission codes; returns its id. */
export async function createRole(
  server: TestServer,
  adminHeaders: Record<string, string>,
  permissions: string[],
  roleName = uniqueAccount('role'),
): Promise<number> {
  const res = await call(server, 'POST', '/api/org/roles', { headers: adminHeaders, payload: { roleName, permissions } });
  if (res.status !== 200) throw new Error(`create role failed: ${res.status} ${res.raw.body}`);
  return res.body.data.id;
}
