import type { FastifyRequest } from 'fastify';
import { dataApiMessages, zhCN, type DataApi, type DataApiRunResult } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, forbidden, notFound, tooManyRequests } from '../../platform/http/errors.ts';
import { ownerCaller, type Caller } from '../perm/index.ts';
import { prepareCall } from './execute.ts';
import { identifyCaller, type CallIdentity } from './keys.ts';
import { findApiByKey, findApiByKeyMemo, recordFailure, recordSuccess, recoverFromPreview } from './repo.ts';
import { logCall } from './call-log-writer.ts';
import { countCall } from './rate-window.ts';
import { keyMayCall, touchKey } from './runtime-repo.ts';
import { getDataApi } from './service.ts';
import { cacheSeconds } from './settings.ts';

/**
 * The published runtime: GET or POST /open/api/{apiKey} (docs/dataapi.md). In order: the API
 * (404), the caller (401), the key's scope and rate (403, 429), the status (offline 403,
 * faulty 503), the parameters (400 naming one), then the read or the external call. Every call
 * is logged, refusals included. Failures of the run itself (not the caller's 4xx) count toward
 * DATA_API_FAULT_THRESHOLD consecutive failures, after which an online API turns faulty.
 *
 * Who reads: a user token reads with that user's table grants; an access key reads as the
 * API's author (their table grants, re-checked on every call), never as an administrator by
 * default — a key can publish only what its API's author may read.
 */

function subjectOf(ctx: AppContext, api: DataApi, identity: CallIdentity): Promise<Caller> | Caller {
  if (identity.kind === 'user') return identity.session;
  if (api.createUserId === null) throw forbidden();
  return ownerCaller(ctx, api.createUserId);
}

async function authorise(ctx: AppContext, api: DataApi, identity: CallIdentity): Promise<void> {
  if (identity.kind !== 'key') return;
  if (!(await keyMayCall(ctx.db, identity.key.id, api.id))) throw forbidden(dataApiMessages.keyNotScoped);
  if ((await countCall(ctx.db, identity.key.accessKey)) > identity.key.rateLimit) throw tooManyRequests(dataApiMessages.rateLimited);
  await touchKey(ctx.db, identity.key.id);
}

function checkStatus(api: DataApi): void {
  if (api.apiStatus === 0) throw new AppError(403, dataApiMessages.apiOffline);
  if (api.apiStatus === 2) throw new AppError(503, dataApiMessages.apiFaulty);
}

const statusOf = (error: unknown) =>
  error instanceof AppError ? error.status : typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : 500;

/** One published call; the envelope's data is the rows (type 1, 3) or the handler's answer (type 2). */
export async function callPublishedApi(ctx: AppContext, request: FastifyRequest, apiKey: string, given: Record<string, unknown>): Promise<unknown> {
  const started = performance.now();
  let api: DataApi | undefined;
  let identity: CallIdentity | undefined;
  let result: DataApiRunResult | undefined;
  let failure: unknown;
  let executing = false;
  try {
    api = await findApiByKeyMemo(ctx.db, apiKey);
    if (!api) throw notFound(dataApiMessages.apiNotFound);
    identity = await identifyCaller(ctx, request);
    await authorise(ctx, api, identity);
    checkStatus(api);
    const run = prepareCall(ctx, api, await subjectOf(ctx, api, identity), given, { cacheTtlMs: (await cacheSeconds(ctx)) * 1000 });
    executing = true;
    result = await run();
    if (api.failCount > 0) await recordSuccess(ctx.db, api.id);
    return result.data;
  } catch (error) {
    failure = error;
    // Parameters are parsed before the run: a failure of the run (an engine error, the handler,
    // the external URL) is the API's; a table the caller may not read (403) is the caller's.
    if (api && executing && statusOf(error) !== 403) await recordFailure(ctx.db, api.id);
    throw error;
  } finally {
    logCall(
      ctx,
      {
        apiId: api?.id ?? null,
        apiKey: apiKey.slice(0, 100),
        accessKey: identity?.kind === 'key' ? identity.key.accessKey : null,
        userId: identity?.kind === 'user' ? identity.session.userId : null,
        params: JSON.stringify(given).slice(0, 4000),
        status: failure === undefined ? 200 : statusOf(failure),
        rowCount: result?.rows ?? 0,
        durationMs: Math.round(performance.now() - started),
        errorMsg: failure === undefined ? null : (failure instanceof Error ? failure.message : String(failure)).slice(0, 500),
      },
      (error: unknown) => request.log.error({ err: error }, 'data-API call log not written'),
    );
  }
}

/**
 * openurl, the editor's preview: the saved API (unknown key: 必须保存才能预览) run as the
 * signed-in author whatever its status; for type 2 the parameters may come as one apiParam JSON
 * string. Success puts a faulty API back online (docs/dataapi.md "Faulty").
 */
export async function previewDataApi(
  ctx: AppContext,
  caller: Caller,
  body: { apiKey: string; params: Record<string, unknown>; apiParam?: string | undefined },
): Promise<DataApiRunResult> {
  if (!(await findApiByKey(ctx.db, body.apiKey))) throw notFound(dataApiMessages.mustSaveToPreview);
  const api = await getDataApi(ctx, caller, { apiKey: body.apiKey });
  let given = body.params;
  if (body.apiParam !== undefined && body.apiParam.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.apiParam);
    } catch {
      parsed = null;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw badRequest(zhCN.badRequest, [{ field: 'apiParam', message: zhCN.badRequest }]);
    given = { ...(parsed as Record<string, unknown>), ...given };
  }
  const result = await prepareCall(ctx, api, caller, given)();
  await recoverFromPreview(ctx.db, api.id);
  return result;
}
