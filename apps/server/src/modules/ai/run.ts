import type { AppContext } from '../../context.ts';
import type { Caller } from '../perm/index.ts';
import { finishCall, startCall, type CallTotals } from './log.ts';

/**
 * One logged generation: the rate limit and the log row first, then `work`; the row is
 * completed with tokens, attempts, duration and the outcome (ok, failed: nothing valid after the
 * retries (422), error: anything else, e.g. the endpoint failed) whatever happens.
 */
export async function runLogged<T>(
  ctx: AppContext,
  caller: Caller,
  purpose: 'sql' | 'formula',
  datasourceId: number,
  model: string,
  work: (totals: CallTotals, logId: number) => Promise<T>,
): Promise<T> {
  const logId = await startCall(ctx, caller.userId, purpose, datasourceId, model);
  const started = performance.now();
  const totals: CallTotals = { promptTokens: 0, completionTokens: 0, attempts: 0 };
  try {
    const result = await work(totals, logId);
    await finishCall(ctx, logId, 'ok', totals, performance.now() - started, null);
    return result;
  } catch (error) {
    const failed = (error as { status?: number }).status === 422;
    await finishCall(ctx, logId, failed ? 'failed' : 'error', totals, performance.now() - started, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
