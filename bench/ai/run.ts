/**
 * AI SQL evaluation (issue 25): the 30 questions of questions.ts asked of ShuTu's AI 生成 SQL
 * with the configured model, scored by execution accuracy (harness.ts, score.ts).
 *
 *   # in process: a throw-away ShuTu with the demo warehouse, the endpoint given here
 *   AI_BASE_URL=https://api.openai.com/v1 AI_MODEL=gpt-4o-mini AI_API_KEY=sk-… npx tsx bench/ai/run.ts
 *   # or a running ShuTu whose 系统设置 → AI 助手 is already configured
 *   npx tsx bench/ai/run.ts --server http://127.0.0.1:3000 --account admin --password '…'
 *   # --only q01,q05 asks only those questions; --json prints the whole report
 *
 * No model is reachable from the build machine: the harness and the question set are the
 * deliverable, and the scoring is tested against the fake server (apps/server/src/modules/ai/bench.test.ts).
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { AI_PATHS, API } from '@shutu/contracts';
import { evaluate, type Api } from './harness.ts';
import { QUESTIONS } from './questions.ts';

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    account: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'admin123' },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

async function httpApi(base: string, account: string, password: string): Promise<Api> {
  const md5 = createHash('md5').update(password).digest('hex');
  const login = await fetch(new URL(API.auth.login, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: md5 }),
  });
  const token = ((await login.json()) as { data?: { token?: string } }).data?.token;
  if (!token) throw new Error(`login as ${account} failed (${login.status})`);
  return async (method, path, body) => {
    const res = await fetch(new URL(path, base), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { msg?: string; data?: unknown } };
  };
}

async function inProcess(): Promise<{ api: Api; close: () => Promise<void> }> {
  const { createTestServer } = await import('../../apps/server/test/harness.ts');
  const server = await createTestServer('pglite', {}, { warehouse: true });
  const headers = await server.login();
  const api: Api = async (method, path, body) => {
    const res = await server.app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: res.statusCode, body: res.json() };
  };
  const { AI_BASE_URL, AI_MODEL, AI_API_KEY } = process.env;
  if (!AI_BASE_URL || !AI_MODEL || !AI_API_KEY) throw new Error('set AI_BASE_URL, AI_MODEL and AI_API_KEY (or pass --server for a configured ShuTu)');
  const saved = await api('PUT', AI_PATHS.settings, { enabled: true, baseUrl: AI_BASE_URL, model: AI_MODEL, apiKey: AI_API_KEY, timeoutSeconds: 120 });
  if (saved.status !== 200) throw new Error(`AI settings refused: ${saved.body.msg}`);
  return { api, close: () => server.close() };
}

const target = values.server ? { api: await httpApi(values.server, values.account, values.password), close: async () => undefined } : await inProcess();
try {
  const sources = await target.api('GET', `${API.datasource.sources}?size=100`);
  const records = (sources.body.data as { records: { id: number; isBuiltin: boolean }[] }).records;
  const warehouse = records.find((s) => s.isBuiltin);
  if (!warehouse) throw new Error('no built-in warehouse on this server');
  const only = values.only ? new Set(values.only.split(',')) : null;
  const questions = QUESTIONS.filter((q) => !only || only.has(q.id));
  const started = performance.now();
  const report = await evaluate(target.api, warehouse.id, questions, {
    onScore: (s, sql) => console.log(`${s.id} ${s.verdict.padEnd(7)} repairs=${s.repairs} ${s.detail} ${sql.replace(/\s+/g, ' ').slice(0, 120)}`),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `execution accuracy ${(report.accuracy * 100).toFixed(1)}% (${report.correct}/${report.total}); wrong ${report.byVerdict.wrong}, refused ${report.byVerdict.refused}, error ${report.byVerdict.error}; ${seconds} s`,
  );
  if (values.json) console.log(JSON.stringify(report, null, 2));
} finally {
  await target.close();
}
