import { aiMessages, aiSettingsSchema, SECRET_MASK, type AiSettings, type AiStatus } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { DecryptError, decryptSecret, encryptSecret, resolveSecretKey } from '../../platform/crypto.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { ChatEndpoint } from './client.ts';

/**
 * 系统设置 → AI 助手: one JSON value in sys_config (key aiSettings), like 通知设置. The API key
 * is encrypted with the installation's secret key (platform/crypto.ts, context shutu:ai.apiKey)
 * and leaves the server only as SECRET_MASK.
 */
const AI_KEY = 'aiSettings';
const KEY_CONTEXT = 'shutu:ai.apiKey';

async function readStored(ctx: AppContext): Promise<AiSettings> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', AI_KEY).executeTakeFirst();
  let parsed: unknown;
  try {
    parsed = row ? JSON.parse(row.value) : {};
  } catch {
    parsed = {};
  }
  const result = aiSettingsSchema.safeParse(parsed);
  return result.success ? result.data : aiSettingsSchema.parse({});
}

/** What the settings screen shows: the key masked. */
export async function getAiSettings(ctx: AppContext): Promise<AiSettings> {
  const stored = await readStored(ctx);
  return { ...stored, apiKey: stored.apiKey ? SECRET_MASK : '' };
}

/** Saves; a key sent as SECRET_MASK keeps the stored one, an empty one clears it. */
export async function saveAiSettings(ctx: AppContext, input: AiSettings): Promise<AiSettings> {
  const previous = await readStored(ctx);
  const apiKey = input.apiKey === SECRET_MASK ? previous.apiKey : input.apiKey ? encryptSecret(resolveSecretKey(ctx.config), input.apiKey, KEY_CONTEXT) : '';
  const value = JSON.stringify({ ...input, baseUrl: input.baseUrl.replace(/\/+$/, ''), apiKey });
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: AI_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  return getAiSettings(ctx);
}

/** The endpoint in clear, or the Chinese reason it cannot be used (a key that no longer decrypts counts as unset). */
async function endpointOrReason(ctx: AppContext): Promise<{ endpoint: ChatEndpoint } | { reason: string }> {
  const stored = await readStored(ctx);
  let apiKey = '';
  if (stored.apiKey) {
    try {
      apiKey = decryptSecret(resolveSecretKey(ctx.config), stored.apiKey, KEY_CONTEXT);
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
    }
  }
  if (!stored.baseUrl || !stored.model || !apiKey) return { reason: aiMessages.notConfigured };
  if (!stored.enabled) return { reason: aiMessages.disabled };
  return {
    endpoint: {
      baseUrl: stored.baseUrl,
      apiKey,
      model: stored.model,
      temperature: stored.temperature,
      maxTokens: stored.maxTokens,
      timeoutMs: stored.timeoutSeconds * 1000,
    },
  };
}

export async function aiStatus(ctx: AppContext): Promise<AiStatus> {
  const found = await endpointOrReason(ctx);
  return 'endpoint' in found ? { enabled: true, message: aiMessages.ready } : { enabled: false, message: found.reason };
}

/** The configured endpoint; 409 with what to configure when there is none. */
export async function requireEndpoint(ctx: AppContext): Promise<ChatEndpoint> {
  const found = await endpointOrReason(ctx);
  if ('reason' in found) throw new AppError(409, found.reason);
  return found.endpoint;
}
