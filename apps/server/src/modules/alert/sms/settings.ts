import { SMS_CATEGORIES, SMS_PROVIDER_FIELDS, SMS_SECRET_MASK, smsProviderSchema, type SmsCategory, type SmsProvider } from '@shutu/contracts';
import type { AppContext } from '../../../context.ts';
import { DecryptError, decryptSecret, encryptSecret, resolveSecretKey } from '../../../platform/crypto.ts';

/**
 * The SMS providers' settings (alert_sms_provider, one row per provider). The secret key is
 * encrypted like the SMTP password (platform/crypto.ts, AES-GCM, context shutu:sms.<category>),
 * shown as ****** and kept when ****** is saved back; an empty value clears it.
 */

const context = (category: SmsCategory) => `shutu:sms.${category}.secretKey`;

function withDefaults(category: SmsCategory, stored: Partial<SmsProvider>): SmsProvider {
  const defaults = Object.fromEntries(SMS_PROVIDER_FIELDS[category].filter((f) => f.default).map((f) => [f.key, f.default]));
  const merged = smsProviderSchema.parse({ ...stored, category });
  for (const [key, value] of Object.entries(defaults)) if (!merged[key as keyof SmsProvider]) (merged as Record<string, string>)[key] = value!;
  return merged;
}

/** A provider's settings with the secret in clear, for sending. A secret that no longer decrypts reads as unset. */
export async function loadSmsProvider(ctx: AppContext, category: SmsCategory): Promise<SmsProvider> {
  const row = await ctx.db.selectFrom('alertSmsProvider').select('settings').where('category', '=', category).executeTakeFirst();
  const stored = row ? (JSON.parse(row.settings) as Partial<SmsProvider>) : {};
  if (stored.secretKey) {
    try {
      stored.secretKey = decryptSecret(resolveSecretKey(ctx.config), stored.secretKey, context(category));
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      stored.secretKey = '';
    }
  }
  return withDefaults(category, stored);
}

/** Every provider, secrets masked (the configuration screen). */
export async function listSmsProviders(ctx: AppContext): Promise<SmsProvider[]> {
  const out: SmsProvider[] = [];
  for (const category of SMS_CATEGORIES) {
    const provider = await loadSmsProvider(ctx, category);
    out.push({ ...provider, secretKey: provider.secretKey ? SMS_SECRET_MASK : '' });
  }
  return out;
}

export async function saveSmsProvider(ctx: AppContext, input: SmsProvider): Promise<SmsProvider> {
  const previous = await loadSmsProvider(ctx, input.category);
  const secret = input.secretKey === SMS_SECRET_MASK ? previous.secretKey : input.secretKey;
  const stored = { ...input, secretKey: secret ? encryptSecret(resolveSecretKey(ctx.config), secret, context(input.category)) : '' };
  await ctx.db
    .insertInto('alertSmsProvider')
    .values({ category: input.category, settings: JSON.stringify(stored) })
    .onConflict((oc) => oc.column('category').doUpdateSet({ settings: JSON.stringify(stored), updateTime: new Date() }))
    .execute();
  const saved = await loadSmsProvider(ctx, input.category);
  return { ...saved, secretKey: saved.secretKey ? SMS_SECRET_MASK : '' };
}
