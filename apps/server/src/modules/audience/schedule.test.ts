import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { sql } from 'kysely';
import { API, AUDIENCE_TICK_JOB, type AudienceRefreshItem } from '@shutu/contracts';
import { call, type Call } from '../../../test/fixtures.ts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { dueSlot, runAudienceTick } from './jobs.ts';

/**
 * Scheduled tag-driven audiences (docs/tags.md "Refresh"): the tick of the audience jobs, on a
 * real pg-boss, sends a due tag-driven audience to be computed again as its owner — one entry
 * more in its refresh history, with the same members — and skips a stopped one (isOnline 2).
 */

const P = API.audience;
const ok = (res: Call) => {
  if (res.status !== 200) throw new Error(`${res.status} ${res.raw.body}`);
  return res.body.data;
};

/** Waits (no fixed sleep) until `check` holds; the test's timeout bounds it. */
const until = async (check: () => Promise<boolean>) => {
  for (;;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

describe('tag-driven audiences on their schedule', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  let months: string[];

  beforeAll(async () => {
    server = await createTestServer('pglite', {}, { warehouse: true, jobs: true });
    admin = await server.login();
    months = ok(await call(server, 'GET', '/api/tag/months', { headers: admin }));
    // The jobs' own tick at start (runAtStart) has run before the test's audiences exist: else it
    // may find the one saved below due and refresh it before the test looks at its history.
    await until(async () => {
      const done = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${AUDIENCE_TICK_JOB} AND state = 'completed'`.execute(
        server.ctx.db,
      );
      return Number(done.rows[0]?.n ?? 0) > 0;
    });
  }, 180_000);
  afterAll(() => server?.close());

  const save = (groupName: string, extra: Record<string, unknown>) =>
    call(server, 'POST', '/api/tag/audience', {
      headers: admin,
      payload: {
        groupName,
        rules: {
          relationship: 'and',
          daterange: [months[2], months[0]],
          ruledetails: [{ level2name: '地区', type: 'area', values: ['p:广东'], date: null, conditions: [] }],
        },
        startAnalyseDate: months[0],
        endAnalyseDate: months[0],
        ...extra,
      },
    });
  const history = async (id: number): Promise<AudienceRefreshItem[]> => ok(await call(server, 'GET', P.refreshes, { headers: admin, query: { id } }));

  it('refreshes a due one once, skips a stopped one, and shows every computation in its history', async () => {
    const daily = ok(await save('广东每日', { requestFreq: 1 }));
    const stopped = ok(await save('广东停用', { requestFreq: 1, isOnline: 2 }));
    expect(daily.size).toBeGreaterThan(0);
    // The save's computation is the first entry.
    expect((await history(daily.id)).map((h) => [h.status, h.size])).toEqual([['done', daily.size]]);
    const detail = ok(await call(server, 'GET', P.detail, { headers: admin, query: { id: stopped.id } }));
    expect(detail).toMatchObject({ kind: 'tag', requestFreq: 1, isOnline: 2 });

    const log = pino({ level: 'silent' });
    await runAudienceTick(server.ctx, log);
    // The same slot again (here or by the jobs' own tick): nothing new is due.
    expect(await runAudienceTick(server.ctx, log)).toBe(0);
    const slot = dueSlot(1, new Date())!.toISOString();
    const slots = await server.ctx.db.selectFrom('audience').select(['id', 'lastSlot']).where('id', 'in', [daily.id, stopped.id]).execute();
    expect(Object.fromEntries(slots.map((r) => [r.id, r.lastSlot?.toISOString() ?? null]))).toEqual({ [daily.id]: slot, [stopped.id]: null });
    await until(async () => (await history(daily.id)).some((h) => h.slot === slot && h.status !== 'running'));
    const [latest] = await history(daily.id);
    expect(latest).toMatchObject({ slot, status: 'done', size: daily.size });
    expect(await history(stopped.id)).toHaveLength(1);

    // 刷新 of a tag-driven audience is a job too; the members stay the same.
    expect((await call(server, 'POST', P.refresh, { headers: admin, payload: { id: daily.id } })).body.msg).toBe('已提交');
    await until(async () => (await history(daily.id)).length === 3 && (await history(daily.id))[0]!.status !== 'running');
    expect((await history(daily.id))[0]).toMatchObject({ status: 'done', size: daily.size });
    const list = ok(await call(server, 'GET', P.list, { headers: admin, query: { kind: 'tag' } }));
    expect(list.records.find((r: { id: number }) => r.id === stopped.id)).toMatchObject({ isOnline: 2 });
  });

  it('stops and starts an audience', async () => {
    const id = ok(await save('广东启停', {})).id;
    expect((await call(server, 'POST', P.online, { headers: admin, payload: { id, isOnline: 2 } })).body.msg).toBe('操作成功!');
    expect(ok(await call(server, 'GET', P.detail, { headers: admin, query: { id } })).isOnline).toBe(2);
    expect((await call(server, 'POST', P.online, { headers: admin, payload: { id, isOnline: 3 } })).status).toBe(400);
    expect((await call(server, 'POST', P.online, { headers: admin, payload: { id, isOnline: 1 } })).status).toBe(200);
    expect(ok(await call(server, 'GET', P.detail, { headers: admin, query: { id } })).isOnline).toBe(1);
  });
});
