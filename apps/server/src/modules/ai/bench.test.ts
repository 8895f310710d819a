import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/fixtures.ts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { evaluate, type Api } from '../../../../../bench/ai/harness.ts';
import { QUESTIONS } from '../../../../../bench/ai/questions.ts';
import { sameResult } from '../../../../../bench/ai/score.ts';
import { sqlAnswer, startFakeOpenAi, type FakeOpenAi } from './testing/fake-openai.ts';

/**
 * bench/ai's scoring against the fake server: a "model" that answers the expected SQL for some
 * questions, a different but equivalent SQL for one, a wrong one for another and two
 * statements for a third must score exactly that.
 */
const KEY = 'sk-bench-test';
const PICKED = QUESTIONS.filter((q) => ['q01', 'q04', 'q05', 'q13', 'q16', 'q24'].includes(q.id));
const byQuestion = new Map(PICKED.map((q) => [q.question, q]));

describe('bench/ai execution accuracy', () => {
  let server: TestServer;
  let fake: FakeOpenAi;
  let api: Api;
  let warehouseId: number;

  beforeAll(async () => {
    server = await createTestServer('pglite', {}, { warehouse: true });
    const admin = await server.login();
    api = async (method, path, body) => {
      const res = await call(server, method, path, { headers: admin, ...(body === undefined ? {} : { payload: body }) });
      return { status: res.status, body: res.body };
    };
    fake = await startFakeOpenAi({
      apiKey: KEY,
      reply: (request) => {
        const q = byQuestion.get(request.messages.find((m) => m.role === 'user')!.content)!;
        if (q.id === 'q04') return sqlAnswer('SELECT count(*) AS "订单数", province AS "省份" FROM orders GROUP BY 2'); // same rows, other names and order
        if (q.id === 'q13') return sqlAnswer("SELECT gender, count(*) FROM users WHERE gender = '男' GROUP BY gender"); // wrong
        if (q.id === 'q16') return sqlAnswer('SELECT 1; SELECT 2'); // refused three times
        if (q.id === 'q05') return sqlAnswer('SELECT province, count(*) AS n FROM orders GROUP BY province ORDER BY n ASC LIMIT 5'); // wrong order and rows
        return sqlAnswer(q.expected);
      },
    });
    const sources = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
    warehouseId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id;
    const saved = await api('PUT', '/api/ai/settings', { enabled: true, baseUrl: fake.baseUrl, model: 'fake', apiKey: KEY });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await fake?.close();
    await server?.close();
  });

  it('every expected statement of the 30 questions runs on the demo warehouse within the preview limit', async () => {
    expect(QUESTIONS).toHaveLength(30);
    expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(30);
    for (const q of QUESTIONS) {
      const res = await api('POST', '/api/sqlview/preview', { datasourceId: warehouseId, sql: q.expected });
      expect(res.status, `${q.id}: ${res.body.msg}`).toBe(200);
      const data = res.body.data as { rows: unknown[]; truncated: boolean };
      expect(data.truncated, q.id).toBe(false);
      expect(data.rows.length, q.id).toBeGreaterThan(0);
    }
  });

  it('scores the fake model by executing what it answered', async () => {
    const report = await evaluate(api, warehouseId, PICKED, { rateLimitWaitMs: 10 });
    const verdicts = Object.fromEntries(report.questions.map((q) => [q.id, q.verdict]));
    expect(verdicts).toEqual({ q01: 'correct', q04: 'correct', q05: 'wrong', q13: 'wrong', q16: 'refused', q24: 'correct' });
    expect(report).toMatchObject({ total: 6, correct: 3, accuracy: 0.5 });
  });

  it('compares rows ignoring column names and order, numbers to 4 places, order only when asked', () => {
    expect(sameResult([{ a: '广东', n: 3 }], [{ x: 3, y: '广东' }])).toBe(true);
    expect(sameResult([{ s: '12.50' }], [{ s: 12.5 }])).toBe(true);
    expect(sameResult([{ n: 1 }, { n: 2 }], [{ n: 2 }, { n: 1 }])).toBe(true);
    expect(sameResult([{ n: 1 }, { n: 2 }], [{ n: 2 }, { n: 1 }], true)).toBe(false);
    expect(sameResult([{ n: null }], [{ n: 0 }])).toBe(false);
  });
});
