import { NOTIFY_SECRET_FIELDS, SECRET_MASK, notifySettingsSchema, type NotifySettings } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { DecryptError, decryptSecret, encryptSecret, resolveSecretKey } from '../../platform/crypto.ts';

/**
 * 通知设置: the SMTP server and robot webhooks subscriptions send through, one JSON value in
 * sys_config (key notifySettings). Secrets are encrypted one by one (AES-GCM, platform/crypto.ts,
 * context shutu:notify.<field>) and leave the server only as SECRET_MASK.
 */
const NOTIFY_KEY = 'notifySettings';
const secretContext = (field: string) => `shutu:notify.${field}`;
type SecretField = (typeof NOTIFY_SECRET_FIELDS)[number];

async function readStored(ctx: AppContext): Promise<NotifySettings> {
  const row = await ctx.db.selectFrom('sysConfig').select('value').where('key', '=', NOTIFY_KEY).executeTakeFirst();
  let parsed: unknown;
  try {
    parsed = row ? JSON.parse(row.value) : {};
  } catch {
    parsed = {};
  }
  const result = notifySettingsSchema.safeParse(parsed);
  return result.success ? result.data : notifySettingsSchema.parse({});
}

/** The settings with secrets in clear, for the channels. A secret that no longer decrypts reads as unset. */
export async function loadNotifySettings(ctx: AppContext): Promise<NotifySettings> {
  const stored = await readStored(ctx);
  const key = resolveSecretKey(ctx.config);
  for (const field of NOTIFY_SECRET_FIELDS) {
    const value = stored[field];
    if (!value) continue;
    try {
      stored[field] = decryptSecret(key, value, secretContext(field));
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      stored[field] = '';
    }
  }
  return stored;
}

/** What the settings screen shows: secrets masked. */
export async function getNotifySettings(ctx: AppContext): Promise<NotifySettings> {
  const stored = await readStored(ctx);
  for (const field of NOTIFY_SECRET_FIELDS) if (stored[field]) stored[field] = SECRET_MASK;
  return stored;
}

/** Saves; a secret sent as SECRET_MASK keeps the stored one, an empty one clears it. */
export async function saveNotifySettings(ctx: AppContext, input: NotifySettings): Promise<NotifySettings> {
  const previous = await readStored(ctx);
  const key = resolveSecretKey(ctx.config);
  const next: NotifySettings = { ...input };
  for (const field of NOTIFY_SECRET_FIELDS as readonly SecretField[]) {
    const value = input[field];
    next[field] = value === SECRET_MASK ? previous[field] : value ? encryptSecret(key, value, secretContext(field)) : '';
  }
  const value = JSON.stringify(next);
  await ctx.db
    .insertInto('sysConfig')
    .values({ key: NOTIFY_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  return getNotifySettings(ctx);
}
