import { aiMessages, formatMessage } from '@shutu/contracts';
import { AppError } from '../../platform/http/errors.ts';

/**
 * A client of OpenAI-compatible chat completions (POST {baseUrl}/chat/completions with a bearer
 * key), on Node's built-in fetch (undici). Any endpoint speaking that protocol works: OpenAI,
 * Azure-style gateways, vLLM, Ollama's /v1, DeepSeek, Qwen's compatible mode. The key is sent
 * only in the Authorization header and never logged.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
}

export interface ChatAnswer {
  content: string;
  promptTokens: number;
  completionTokens: number;
}

/** The endpoint failed (unreachable, timed out, answered an error): the user sees `message`. */
export class AiEndpointError extends AppError {
  override name = 'AiEndpointError';
}

export function completionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
}

/** The error text an OpenAI-compatible server put in its body ({ error: { message } }), else the status line. */
function upstreamDetail(status: number, statusText: string, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message.trim() !== '') return `HTTP ${status} ${message.trim().slice(0, 300)}`;
  } catch {
    // not JSON: the status line says enough
  }
  return `HTTP ${status} ${statusText}`.trim();
}

export async function chatComplete(endpoint: ChatEndpoint, messages: readonly ChatMessage[]): Promise<ChatAnswer> {
  const url = completionsUrl(endpoint.baseUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify({
        model: endpoint.model,
        messages,
        temperature: endpoint.temperature,
        max_tokens: endpoint.maxTokens,
        n: 1,
        stream: false,
      }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new AiEndpointError(504, formatMessage(aiMessages.timeout, { seconds: Math.round(endpoint.timeoutMs / 1000) }));
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new AiEndpointError(502, formatMessage(aiMessages.unreachable, { url, detail }));
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new AiEndpointError(504, formatMessage(aiMessages.timeout, { seconds: Math.round(endpoint.timeoutMs / 1000) }));
    }
    throw error;
  }
  if (!response.ok) {
    throw new AiEndpointError(502, formatMessage(aiMessages.upstream, { detail: upstreamDetail(response.status, response.statusText, text) }));
  }
  let body: { choices?: { message?: { content?: unknown } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new AiEndpointError(502, formatMessage(aiMessages.upstream, { detail: '返回的不是 JSON' }));
  }
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new AiEndpointError(502, formatMessage(aiMessages.upstream, { detail: '返回中没有 choices[0].message.content' }));
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : 0);
  return { content, promptTokens: count(body.usage?.prompt_tokens), completionTokens: count(body.usage?.completion_tokens) };
}
