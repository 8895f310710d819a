import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { hashToken } from '../../platform/auth/tokens.ts';
import { issueViewToken } from './view-token.ts';

/**
 * View tokens for /openview/{id}?token=: only for who may see the board, a working sign-in
 * for the board's API, gone after BOARD_VIEW_TOKEN_MINUTES.
 */
const kinds = await storeKinds();
type Headers = Record<string, string>;

describe.each(kinds)('board view tokens on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let creator: { id: number; headers: Headers };
  let outsider: { id: number; headers: Headers };
  let boardId: number;

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const viewToken = (headers: Headers, id: number) => call(server, 'POST', `/api/board/boards/${id}/view-token`, { headers });

  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
    const user = async () => {
      const created = await createUser(server, admin);
      return { id: created.id, headers: await server.login(created.account, created.password) };
    };
    creator = await user();
    outsider = await user();
    const category = await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '令牌测试' } });
    // Restricted (publicStatus 0) with no groups: only its creator and administrators see it.
    const board: BoardSave = {
      title: '华东销售大屏',
      categoryId: category.body.data.id,
      publicStatus: 0,
      content: { type: 'screen', layout: [{ i: 't1', x: 0, y: 0, w: 400, h: 120 }] },
      charts: [{ key: 't1', name: 'text', ext: { filterList: [], text: '本月销售' } }],
    };
    const saved = await call(server, 'POST', '/api/board/boards', { headers: creator.headers, payload: board });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
  });
  afterAll(() => server?.close());

  it('refuses a user who may not see the board with 403 没有此大屏权限, and an unknown board with 404', async () => {
    const refused = await viewToken(outsider.headers, boardId);
    expect([refused.status, refused.body.msg]).toEqual([403, '没有此大屏权限']);
    const missing = await viewToken(creator.headers, 999_999);
    expect([missing.status, missing.body.msg]).toEqual([404, '报表不存在']);
  });

  it('gives the creator a ten-minute token that opens the board', async () => {
    const before = Date.now();
    const res = await viewToken(creator.headers, boardId);
    expect(res.status, res.raw.body).toBe(200);
    const { token, expiresAt } = res.body.data as { token: string; expiresAt: string };
    const lifetime = Date.parse(expiresAt) - before;
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 5_000);

    const board = await call(server, 'GET', `/api/board/boards/${boardId}`, { headers: bearer(token) });
    expect(board.status).toBe(200);
    expect(board.body.data).toMatchObject({ title: '华东销售大屏', charts: [{ key: 't1' }] });
    // It is the creator's own sign-in, not an administrator's.
    const users = await call(server, 'GET', '/api/org/users', { headers: bearer(token) });
    expect(users.status).toBe(403);
  });

  it('stops working once it has expired', async () => {
    const { token } = (await viewToken(creator.headers, boardId)).body.data as { token: string };
    expect((await call(server, 'GET', `/api/board/boards/${boardId}`, { headers: bearer(token) })).status).toBe(200);
    await server.ctx.db
      .updateTable('authToken')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('tokenHash', '=', hashToken(token))
      .execute();
    const expired = await call(server, 'GET', `/api/board/boards/${boardId}`, { headers: bearer(token) });
    expect([expired.status, expired.body.msg]).toEqual([401, '登录已失效，请重新登录']);
  });

  it('issues tokens for the renderers under the same rule', async () => {
    const adminId = (await call(server, 'GET', '/api/profile', { headers: admin })).body.data.id as number;
    const { token } = await issueViewToken(server.ctx, adminId, boardId);
    expect((await call(server, 'GET', `/api/board/boards/${boardId}/charts`, { headers: bearer(token) })).status).toBe(200);
    await expect(issueViewToken(server.ctx, outsider.id, boardId)).rejects.toMatchObject({ status: 403, message: '没有此大屏权限' });
  });
});
