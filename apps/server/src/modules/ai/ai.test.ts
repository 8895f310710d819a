import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_PATHS, AI_RATE_PER_MINUTE, SECRET_MASK } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, threeTableDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { formulaAnswer, sqlAnswer, startFakeOpenAi, type FakeChatRequest, type FakeOpenAi, type FakeReply } from './testing/fake-openai.ts';
import { pickTables } from './grounding.ts';
import { parseAnswer } from './answer.ts';
import { chatComplete } from './client.ts';

const KEY = 'sk-test-0123456789abcdef';
const RIGHT_SQL = "SELECT province, count(*) AS n FROM orders WHERE status = '订购成功' GROUP BY province ORDER BY n DESC";
const WRONG_SQL = 'SELECT provnce, count(*) AS n FROM orders GROUP BY provnce';

/** Canned answers by the question (the last user message of the first turn) and the turn. */
function reply(request: FakeChatRequest): FakeReply {
  const question = request.messages.find((m) => m.role === 'user')!.content;
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (question.includes('各省成功订购数')) return turn === 0 ? sqlAnswer(WRONG_SQL) : sqlAnswer(RIGHT_SQL, '按省份统计订购成功的订单数');
  if (question.includes('两条语句')) return sqlAnswer('SELECT 1 AS a; SELECT 2 AS b');
  if (question.includes('用户表')) return turn === 0 ? sqlAnswer('SELECT count(*) AS n FROM users') : sqlAnswer('SELECT count(*) AS n FROM orders');
  if (question.includes('服务出错')) return { status: 500, body: { error: { message: 'model overloaded' } } };
  if (question.includes('金额翻倍')) return turn === 0 ? formulaAnswer('[不存在的字段] * 2') : formulaAnswer('[金额] * 2', '金额乘以 2');
  if (question.includes('总是错')) return formulaAnswer('SUM([省份]');
  return sqlAnswer('SELECT 1 AS n');
}

describe('AI assistance against a local OpenAI-compatible server', () => {
  let w: DatasetWorld;
  let fake: FakeOpenAi;
  const post = (path: string, payload: unknown, headers: Headers = w.admin) => call(w.server, 'POST', path, { headers, payload });
  const settings = (overrides: Record<string, unknown> = {}) => ({ enabled: true, baseUrl: fake.baseUrl, model: 'fake-sql-1', apiKey: KEY, ...overrides });

  beforeAll(async () => {
    w = await datasetWorld('pglite');
    fake = await startFakeOpenAi({ apiKey: KEY, reply });
  });
  afterAll(async () => {
    await fake?.close();
    await w?.close();
  });

  it('explains what to configure before an administrator sets it up, and refuses generation with that text', async () => {
    const status = await call(w.server, 'GET', AI_PATHS.status, { headers: w.admin });
    expect(status.body.data).toEqual({ enabled: false, message: expect.stringContaining('系统设置 → AI 助手') });
    const res = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '各省成功订购数' });
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('请管理员在【系统设置 → AI 助手】中填写接口地址、模型和 API Key');
    expect(fake.requests).toHaveLength(0);
  });

  it('keeps the key encrypted, never returns it, and only administrators see the settings', async () => {
    const saved = await call(w.server, 'PUT', AI_PATHS.settings, { headers: w.admin, payload: settings() });
    expect(saved.status, saved.raw.body).toBe(200);
    expect(saved.body.data).toMatchObject({ apiKey: SECRET_MASK, temperature: 0.1, maxTokens: 2048, model: 'fake-sql-1' });
    const stored = await w.server.ctx.db.selectFrom('sysConfig').select('value').where('key', '=', 'aiSettings').executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(KEY);
    expect(stored.value).toMatch(/"apiKey":"v1:/);
    // Saving the mask keeps the key.
    await call(w.server, 'PUT', AI_PATHS.settings, { headers: w.admin, payload: settings({ apiKey: SECRET_MASK }) });
    const member = await w.member();
    expect((await call(w.server, 'GET', AI_PATHS.settings, { headers: member.headers })).status).toBe(403);
    expect((await call(w.server, 'GET', AI_PATHS.status, { headers: member.headers })).body.data.enabled).toBe(true);
    const bad = await call(w.server, 'PUT', AI_PATHS.settings, { headers: w.admin, payload: settings({ baseUrl: 'ftp://x', apiKey: SECRET_MASK }) });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('http:// 或 https://');
    const chinese = await call(w.server, 'PUT', AI_PATHS.settings, { headers: w.admin, payload: settings({ apiKey: 'sk-密钥' }) });
    expect(chinese.status).toBe(400);
    expect(chinese.body.msg).toContain('API Key 只能包含英文字母');
  });

  it('repairs wrong SQL once with the engine error and previews the right SQL', async () => {
    const before = fake.requests.length;
    const res = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '各省成功订购数，从高到低' });
    expect(res.status, res.raw.body).toBe(200);
    const data = res.body.data;
    expect(data.sql).toBe(RIGHT_SQL);
    expect(data.explanation).toBe('按省份统计订购成功的订单数');
    expect(data.repairs).toHaveLength(1);
    expect(data.repairs[0].error).toContain('provnce');
    const direct = await w.direct("SELECT province, count(*) AS n FROM orders WHERE status = '订购成功' GROUP BY province ORDER BY n DESC");
    // Provinces with the same count may come in either order (the statement orders by count only).
    const byCount = (a: [unknown, number], b: [unknown, number]) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0]));
    const previewed = data.preview.rows.map((r: Record<string, unknown>): [unknown, number] => [r.province, Number(r.n)]);
    expect(previewed.map((p: [unknown, number]) => p[1])).toEqual(direct.map((r) => Number(r.n)));
    expect([...previewed].sort(byCount)).toEqual(direct.map((r): [unknown, number] => [r.province, Number(r.n)]).sort(byCount));

    const [first, second] = fake.requests.slice(before);
    expect(fake.requests.length - before).toBe(2);
    expect(first).toMatchObject({ model: 'fake-sql-1', temperature: 0.1, max_tokens: 2048, n: 1 });
    const system = first!.messages[0]!.content;
    expect(system).toContain('DuckDB');
    expect(system).toContain('表 orders（产品订购记录）');
    expect(system).toMatch(/status VARCHAR 订购状态.*示例：/);
    expect(system).not.toContain('ClickHouse'); // the rules of the source's own engine only
    // The repair turn carries the first answer and the engine's error.
    expect(second!.messages.at(-2)).toEqual({ role: 'assistant', content: sqlAnswer(WRONG_SQL) });
    expect(second!.messages.at(-1)!.content).toContain('provnce');
  });

  it('refuses a two-statement answer after two repairs, showing no SQL', async () => {
    const before = fake.requests.length;
    const res = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '给我两条语句' });
    expect(res.status).toBe(422);
    expect(res.body.msg).toMatch(/^AI 生成的 SQL 经 2 次修正仍无法执行：/);
    expect(res.raw.body).not.toContain('SELECT 2');
    expect(fake.requests.length - before).toBe(3);
  });

  it('grounds a member in the tables granted to them only, and their SQL may read only those', async () => {
    const member = await w.member();
    await w.group([member.id], ['orders']);
    const before = fake.requests.length;
    const res = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '用户表有多少人' }, member.headers);
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data.tables).toEqual(['orders']);
    expect(res.body.data.repairs[0].error).toContain('users');
    const system = fake.requests[before]!.messages[0]!.content;
    expect(system).toContain('表 orders');
    expect(system).not.toContain('表 users');
    expect(system).not.toContain('表 cancellations');
  });

  it('names the join keys saved datasets use', async () => {
    const ws = await w.category();
    const saved = await w.save(w.admin, threeTableDataset(ws, w.warehouseId));
    expect(saved.status, saved.raw.body).toBe(200);
    const before = fake.requests.length;
    await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '每个用户的订购次数' });
    const system = fake.requests[before]!.messages[0]!.content;
    expect(system).toContain('- orders.phone = users.phone');
    expect(system).toMatch(/另有 \d+ 张表与问题关系不大，未列出/);
  });

  it('passes an endpoint failure on in Chinese', async () => {
    const res = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '服务出错了吗' });
    expect(res.status).toBe(502);
    expect(res.body.msg).toBe('AI 服务调用失败：HTTP 500 model overloaded');
  });

  it('gives up on a slow endpoint at the timeout with a Chinese message', async () => {
    const slow = await startFakeOpenAi({ apiKey: KEY, reply: () => ({ delayMs: 2_000, content: sqlAnswer('SELECT 1') }) });
    try {
      const endpoint = { baseUrl: slow.baseUrl, apiKey: KEY, model: 'm', temperature: 0.1, maxTokens: 2048, timeoutMs: 1_000 };
      await expect(chatComplete(endpoint, [{ role: 'user', content: '慢' }])).rejects.toMatchObject({
        status: 504,
        message: 'AI 服务在 1 秒内没有响应，请稍后重试或请管理员调大超时时间',
      });
    } finally {
      await slow.close();
    }
  });

  it('shows a call whose process died as failed, not running forever', async () => {
    const member = await w.member();
    const row = await w.server.ctx.db
      .insertInto('aiCallLog')
      .values({ userId: member.id, purpose: 'sql', datasourceId: w.warehouseId, createTime: new Date(Date.now() - 3_600_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const logs = await call(w.server, 'GET', AI_PATHS.logs, { headers: w.admin });
    expect(logs.body.data.find((l: { id: number }) => l.id === row.id)).toMatchObject({ outcome: 'error', error: '调用未完成：服务进程在调用过程中退出' });
  });

  it('refuses a wrong key with the endpoint message', async () => {
    await call(w.server, 'PUT', AI_PATHS.settings, { headers: w.admin, payload: settings({ apiKey: 'sk-wrong' }) });
    const res = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '随便问问' });
    expect(res.status).toBe(502);
    expect(res.body.msg).toContain('Incorrect API key provided');
    expect(fake.refused.at(-1)).toEqual({ status: 401, reason: 'Incorrect API key provided' });
    await call(w.server, 'PUT', AI_PATHS.settings, { headers: w.admin, payload: settings() });
  });

  const fields = [
    { id: 'f1', columnName: 'province', columnTitle: '省份', columnAttr: 'NORMAL', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 'f2', columnName: 'amount', columnTitle: '金额', columnAttr: 'NORMAL', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
  ];

  it('generates a formula checked by the formula checker, repairing an invalid one', async () => {
    const before = fake.requests.length;
    const res = await post(AI_PATHS.formula, { datasourceId: w.warehouseId, description: '金额翻倍', fields });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toMatchObject({ formula: '[金额] * 2', explanation: '金额乘以 2', hasAggregation: false });
    expect(res.body.data.repairs[0].error).toContain('不存在的字段');
    const system = fake.requests[before]!.messages[0]!.content;
    expect(system).toContain('[金额] 数字，指标');
    expect(system).toContain('COUNT_DISTINCT');
  });

  it('gives a clear message when the formula is invalid twice', async () => {
    const res = await post(AI_PATHS.formula, { datasourceId: w.warehouseId, description: '总是错', fields });
    expect(res.status).toBe(422);
    expect(res.body.msg).toMatch(/^AI 两次生成的公式都未通过校验：/);
  });

  it('logs every call without the key, records acceptance, and limits each user to 20 a minute', async () => {
    const ok = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '各省成功订购数' });
    expect((await post(AI_PATHS.accept, { logId: ok.body.data.logId })).status).toBe(200);
    const logs = await call(w.server, 'GET', AI_PATHS.logs, { headers: w.admin });
    expect(logs.raw.body).not.toContain(KEY);
    const entry = logs.body.data.find((l: { id: number }) => l.id === ok.body.data.logId);
    expect(entry).toMatchObject({ purpose: 'sql', outcome: 'ok', accepted: true, attempts: 2, model: 'fake-sql-1', completionTokens: 40 });
    expect(entry.promptTokens).toBeGreaterThan(200);
    expect(logs.body.data.some((l: { outcome: string }) => l.outcome === 'failed')).toBe(true);
    expect(logs.body.data.some((l: { outcome: string }) => l.outcome === 'error')).toBe(true);

    const member = await w.member();
    await w.group([member.id], ['orders']);
    const userId = member.id;
    await w.server.ctx.db
      .insertInto('aiCallLog')
      .values(Array.from({ length: AI_RATE_PER_MINUTE }, () => ({ userId, purpose: 'sql' as const, datasourceId: w.warehouseId, outcome: 'ok' as const })))
      .execute();
    const limited = await post(AI_PATHS.sql, { datasourceId: w.warehouseId, question: '随便问问' }, member.headers);
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toBe('AI 调用过于频繁：每人每分钟最多 20 次，请稍后再试');
  });
});

describe('choosing tables and reading answers', () => {
  it('sends the tables whose names or comments the question mentions when there are many', () => {
    const tables = Array.from({ length: 30 }, (_, i) => ({ name: `t_${i}`, comment: `其他表${i}` }));
    tables.push({ name: 'orders', comment: '产品订购记录' }, { name: 'cancellations', comment: '产品退订记录' });
    const picked = pickTables('上个月各省的退订数量', tables, 5);
    expect(picked[0]!.name).toBe('cancellations');
    expect(picked).toHaveLength(5);
  });

  it('reads JSON, fenced JSON, a sql fence with prose, and a bare statement', () => {
    expect(parseAnswer('{"sql":"SELECT 1","explanation":"一"}', 'sql')).toEqual({ code: 'SELECT 1', explanation: '一' });
    expect(parseAnswer('好的：\n```json\n{"sql":"SELECT 2","explanation":"二"}\n```', 'sql')).toEqual({ code: 'SELECT 2', explanation: '二' });
    expect(parseAnswer('说明文字\n```sql\nSELECT 3\n```', 'sql')).toEqual({ code: 'SELECT 3', explanation: '说明文字' });
    expect(parseAnswer('select 4', 'sql').code).toBe('select 4');
    expect(parseAnswer('我不知道。', 'sql').code).toBe('');
  });
});
