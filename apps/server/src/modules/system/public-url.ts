import { publicUrlSettingsSchema, type PublicUrlSettings, type PublicUrlSettingsInput } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { CoherentMemo, publish } from '../../platform/cache/coherent.ts';

/**
 * 公开访问地址: the base of every link the product sends out or shows for copying (subscription
 * messages and the images robots link to, share links), one value in sys_config (key publicUrl).
 * Read by every such link, so cached per app context like 嵌入设置: saving replaces the cache at
 * once; every other server process on the same PostgreSQL forgets it through the cache bus ('settings').
 *
 * Which base a link gets (docs/decisions.md): the setting; else PUBLIC_URL (config.publicUrl);
 * else the caller's fallback — the request's own origin for links made in a request, selfUrl
 * for jobs. The server's own renderer keeps using selfUrl: it loads this server's pages locally.
 */
const PUBLIC_URL_KEY = 'publicUrl';
const CACHE_TTL_MS = 60_000;

const cache = new CoherentMemo<string>(['settings'], CACHE_TTL_MS);

async function readStored(ctx: AppContext): Promise<string> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', PUBLIC_URL_KEY).executeTakeFirst();
  const result = publicUrlSettingsSchema.safeParse({ publicUrl: row?.value ?? '' });
  return result.success ? result.data.publicUrl : '';
}

function storedPublicUrl(ctx: AppContext): Promise<string> {
  // A failed read is not kept: the next link asks again.
  return cache.get(ctx, PUBLIC_URL_KEY, () => readStored(ctx));
}

/** The configured public base URL (setting, else PUBLIC_URL), without a trailing slash; undefined when neither is set. */
export async function publicBaseUrl(ctx: AppContext): Promise<string | undefined> {
  return (await storedPublicUrl(ctx)) || ctx.config.publicUrl || undefined;
}

/** The base for a link to a human: publicBaseUrl, else `fallback` (the request's origin, or selfUrl in jobs). */
export async function linkBaseUrl(ctx: AppContext, fallback: string | undefined): Promise<string | undefined> {
  return (await publicBaseUrl(ctx)) ?? fallback;
}

export async function getPublicUrlSettings(ctx: AppContext): Promise<PublicUrlSettings> {
  return { publicUrl: await storedPublicUrl(ctx), envPublicUrl: ctx.config.publicUrl ?? '' };
}

export async function savePublicUrlSettings(ctx: AppContext, input: PublicUrlSettingsInput): Promise<PublicUrlSettings> {
  const { publicUrl } = publicUrlSettingsSchema.parse(input);
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: PUBLIC_URL_KEY, value: publicUrl })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: publicUrl }))
    .execute();
  publish(ctx, 'settings');
  return getPublicUrlSettings(ctx);
}
