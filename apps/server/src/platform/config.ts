import path from 'node:path';
import { normalizePublicUrl, publicUrlInvalid } from '@shutu/contracts';

export interface Config {
  port: number;
  host: string;
  /** Every piece of state lives under here: metadata store, warehouse, uploads. */
  dataDir: string;
  /** A real PostgreSQL for the metadata store; absent means embedded PGlite in dataDir. */
  databaseUrl: string | undefined;
  tokenTtlHours: number;
  logLevel: string;
  /** Built web app served at `/`; absent in API-only tests. */
  webDist: string | undefined;
  /** How many failed logins one account may have per minute before it gets 429. */
  loginFailuresPerMinute: number;
  /**
   * Base64 of the 32-byte key that encrypts data-source credentials (SHUTU_SECRET_KEY);
   * absent means the key file dataDir/keys/secret.key, created on first start.
   */
  secretKey: string | undefined;
  /** Order rows of the generated demo warehouse (SHUTU_DEMO_SCALE); absent means the generator's default. */
  demoScale: number | undefined;
  /** Largest upload accepted (UPLOAD_MAX_MB, default 200 MB); more gives 413. */
  uploadMaxBytes: number;
  /**
   * Largest xlsx / xls accepted (UPLOAD_SPREADSHEET_MAX_MB, default 50 MB): SheetJS parses a
   * workbook in memory, so it gets a tighter cap than streamed CSV; an xlsx may also not
   * unpack to more than 10 times this.
   */
  spreadsheetMaxBytes: number;
  /** SHUTU_SELF_URL: where the server's own headless Chromium reaches it; absent means http://127.0.0.1:{listening port}. */
  selfUrl: string | undefined;
  /**
   * PUBLIC_URL: the address people reach 数图 at (https://bi.example.com, or with a path prefix), the
   * base of links sent out (subscriptions, share links) while 系统设置 → 公开访问地址 is empty.
   * Normalised; an invalid value stops the start. Absent: see modules/system/public-url.ts.
   */
  publicUrl: string | undefined;
  /** CHROMIUM_PATH: the browser the server renders with (thumbnails, PDF); default Debian's /usr/bin/chromium. */
  chromiumPath: string;
  /** SHUTU_THUMBNAILS=0 turns off rendering board thumbnails after saves (browser tests that do not look at them). */
  thumbnails: boolean;
  /**
   * SHUTU_SUBSCRIPTION_CATCH_UP_MINUTES (default 60): how late a subscription's due time that
   * passed while no server was running is still sent; older ones are skipped.
   */
  subscriptionCatchUpMs: number;
  /**
   * SHUTU_SUBSCRIPTION_STALE_CLAIM_SECONDS (default 600): how long a send may stay 发送中 before
   * it is taken to be lost in a crash and sent once more. Keep it above the longest render.
   */
  subscriptionStaleClaimMs: number;
  /**
   * SHUTU_ADMIN_PASSWORD: the first administrator's password, read only when the store is seeded
   * (first start). Unset: admin123, which must be changed at first login; set: the operator chose
   * it, so no change is forced. At least 6 characters.
   */
  adminPassword: string | undefined;
}

/** A positive number from the environment, or the default when unset or not a positive number. */
function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}

function publicUrlOf(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const normalized = normalizePublicUrl(value);
  if (!normalized) throw new Error(`PUBLIC_URL: ${publicUrlInvalid}（当前：${value}）`);
  return normalized;
}

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS ?? 12),
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
    loginFailuresPerMinute: 5,
    secretKey: env.SHUTU_SECRET_KEY || undefined,
    demoScale: env.SHUTU_DEMO_SCALE ? Number(env.SHUTU_DEMO_SCALE) : undefined,
    uploadMaxBytes: Number(env.UPLOAD_MAX_MB ?? 200) * 1024 * 1024,
    spreadsheetMaxBytes: Number(env.UPLOAD_SPREADSHEET_MAX_MB ?? 50) * 1024 * 1024,
    selfUrl: env.SHUTU_SELF_URL || undefined,
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    thumbnails: env.SHUTU_THUMBNAILS !== '0',
    subscriptionCatchUpMs: positiveNumber(env.SHUTU_SUBSCRIPTION_CATCH_UP_MINUTES, 60) * 60_000,
    subscriptionStaleClaimMs: positiveNumber(env.SHUTU_SUBSCRIPTION_STALE_CLAIM_SECONDS, 600) * 1000,
    adminPassword: env.SHUTU_ADMIN_PASSWORD || undefined,
  };
}
