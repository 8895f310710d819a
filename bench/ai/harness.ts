import { AI_PATHS, API } from '@shutu/contracts';
import type { EvalQuestion } from './questions.ts';
import { sameResult, summarise, type EvalReport, type QuestionScore, type ResultRow } from './score.ts';

/**
 * The evaluation loop, independent of where ShuTu runs: `api` calls one ShuTu server (in
 * process through inject, or over HTTP) as a user who may read the warehouse. Each question
 * goes to POST /api/ai/sql (the product's own path: grounding, guard, repairs, preview); the
 * expected statement runs through the SQL-view preview on the same source, and the two row
 * sets are compared (score.ts). A 429 (the per-user rate limit) waits and asks again.
 */
export type Api = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => Promise<{ status: number; body: { msg?: string; data?: unknown } }>;

interface Preview {
  rows: ResultRow[];
  truncated: boolean;
}
interface SqlAnswer {
  sql: string;
  preview: Preview;
  repairs: unknown[];
}

export interface EvalOptions {
  /** Called after every question (progress output). */
  onScore?: (score: QuestionScore, sql: string) => void;
  /** Wait after a 429 before asking again; the limit is per minute. */
  rateLimitWaitMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function expectedRows(api: Api, datasourceId: number, sql: string): Promise<Preview> {
  const res = await api('POST', API.sqlView.preview, { datasourceId, sql });
  if (res.status !== 200) throw new Error(`expected SQL failed (${res.status} ${res.body.msg ?? ''}): ${sql}`);
  return res.body.data as Preview;
}

export async function evaluate(api: Api, datasourceId: number, questions: readonly EvalQuestion[], options: EvalOptions = {}): Promise<EvalReport> {
  const scores: QuestionScore[] = [];
  for (const q of questions) {
    const expected = await expectedRows(api, datasourceId, q.expected);
    let res = await api('POST', AI_PATHS.sql, { datasourceId, question: q.question });
    for (let waits = 0; res.status === 429 && waits < 30; waits++) {
      await sleep(options.rateLimitWaitMs ?? 5_000);
      res = await api('POST', AI_PATHS.sql, { datasourceId, question: q.question });
    }
    let score: QuestionScore;
    let sql = '';
    if (res.status === 200) {
      const answer = res.body.data as SqlAnswer;
      sql = answer.sql;
      const correct = !answer.preview.truncated && sameResult(expected.rows, answer.preview.rows, q.ordered === true);
      score = {
        id: q.id,
        verdict: correct ? 'correct' : 'wrong',
        repairs: answer.repairs.length,
        detail: correct ? '' : `${answer.preview.rows.length} 行，期望 ${expected.rows.length} 行`,
      };
    } else {
      score = { id: q.id, verdict: res.status === 422 ? 'refused' : 'error', repairs: 0, detail: `${res.status} ${res.body.msg ?? ''}` };
    }
    scores.push(score);
    options.onScore?.(score, sql);
  }
  return summarise(scores);
}
