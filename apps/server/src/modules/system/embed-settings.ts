import { embedSettingsSchema, type EmbedSettings } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { CoherentMemo, publish } from '../../platform/cache/coherent.ts';

/**
 * 嵌入设置: the origins allowed to frame /openview and share links (platform/http/security-headers.ts),
 * one JSON value in sys_config (key embedSettings). Every embeddable page asks for them, so they
 * are cached per app context: saving here replaces the cache at once; every other server process
 * on the same PostgreSQL forgets it through the cache bus ('settings').
 */
const EMBED_KEY = 'embedSettings';
const CACHE_TTL_MS = 60_000;

const cache = new CoherentMemo<EmbedSettings>(['settings'], CACHE_TTL_MS);

async function readStored(ctx: AppContext): Promise<EmbedSettings> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', EMBED_KEY).executeTakeFirst();
  let parsed: unknown;
  try {
    parsed = row ? JSON.parse(row.value) : {};
  } catch {
    parsed = {};
  }
  const result = embedSettingsSchema.safeParse(parsed);
  return result.success ? result.data : { embedOrigins: [] };
}

export function getEmbedSettings(ctx: AppContext): Promise<EmbedSettings> {
  // A failed read is not kept: the next page asks again.
  return cache.get(ctx, EMBED_KEY, () => readStored(ctx));
}

/** The sources security-headers.ts adds to frame-ancestors on embeddable pages. */
export async function embedOrigins(ctx: AppContext): Promise<readonly string[]> {
  return (await getEmbedSettings(ctx)).embedOrigins;
}

export async function saveEmbedSettings(ctx: AppContext, input: EmbedSettings): Promise<EmbedSettings> {
  const value = JSON.stringify(input);
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: EMBED_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  publish(ctx, 'settings');
  return input;
}
