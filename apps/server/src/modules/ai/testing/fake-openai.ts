import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat-completions server for tests, the e2e and the bench's scoring
 * test: it listens on 127.0.0.1, refuses a missing or wrong bearer key (401) and a request that
 * is not a chat completion (400: model, messages with roles and contents, numeric temperature
 * and max_tokens), records every accepted request and answers what `reply` returns.
 */

export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  temperature: number;
  max_tokens: number;
  [key: string]: unknown;
}

/** A completion text, or a raw HTTP answer (to test upstream errors), or a delay before answering. */
export type FakeReply = string | { status: number; body: unknown } | { delayMs: number; content: string };

export interface FakeOpenAi {
  /** The base URL to configure, e.g. http://127.0.0.1:PORT/v1. */
  baseUrl: string;
  requests: FakeChatRequest[];
  /** Requests refused for their key or shape, with the status given. */
  refused: { status: number; reason: string }[];
  close(): Promise<void>;
}

function shapeError(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'body is not a JSON object';
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return 'model missing';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return 'messages missing';
  for (const m of b.messages as unknown[]) {
    const message = m as Record<string, unknown>;
    if (!['system', 'user', 'assistant'].includes(String(message.role)) || typeof message.content !== 'string') return 'bad message';
  }
  if (typeof b.temperature !== 'number') return 'temperature missing';
  if (typeof b.max_tokens !== 'number') return 'max_tokens missing';
  return null;
}

export async function startFakeOpenAi(options: { apiKey: string; reply: (request: FakeChatRequest, index: number) => FakeReply }): Promise<FakeOpenAi> {
  const requests: FakeChatRequest[] = [];
  const refused: { status: number; reason: string }[] = [];
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const refuse = (status: number, reason: string) => {
        refused.push({ status, reason });
        send(res, status, { error: { message: reason, type: 'invalid_request_error' } });
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return refuse(404, `no route ${req.method} ${req.url}`);
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) return refuse(401, 'Incorrect API key provided');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse(400, 'body is not JSON');
      }
      const problem = shapeError(body);
      if (problem) return refuse(400, problem);
      const request = body as FakeChatRequest;
      requests.push(request);
      const reply = options.reply(request, requests.length - 1);
      const answer = (content: string) =>
        send(res, 200, {
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100 + requests.length, completion_tokens: 20, total_tokens: 120 + requests.length },
        });
      if (typeof reply === 'string') return answer(reply);
      if ('status' in reply) return send(res, reply.status, reply.body);
      setTimeout(() => answer(reply.content), reply.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The answer a well-behaved model gives: the JSON object the prompt asks for. */
export const sqlAnswer = (sql: string, explanation = '按问题统计') => JSON.stringify({ sql, explanation });
export const formulaAnswer = (formula: string, explanation = '按描述计算') => JSON.stringify({ formula, explanation });
