import fs from 'node:fs';
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
  /**
   * Memory the embedded DuckDB engine of a data source (the built-in warehouse, DuckDB files) may
   * use for its buffers and working sets (SHUTU_DUCKDB_MEMORY_LIMIT, DuckDB's units, default
   * 1GB; DuckDB's own default is 80% of the machine), and its threads (SHUTU_DUCKDB_THREADS,
   * default the CPU count). It shares the process with the server: without a limit its buffer
   * pool keeps what it read and the process grows far past what the server itself needs.
   */
  duckdbMemoryLimit: string;
  duckdbThreads: number | undefined;
  /**
   * Embedded DuckDB files (the built-in warehouse, DuckDB data sources) are opened by an engine
   * process of their own, a child of this server (SHUTU_DUCKDB_PROCESS, default on; `0` opens
   * them inside the server): the engine's buffer pool and working memory then do not grow the
   * web process, and a crash of the engine fails its reads instead of the server
   * (docs/architecture.md "The DuckDB engine process").
   */
  duckdbEngineProcess: boolean;
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
  /** Where files another process must read live (exports, PDFs, images): docs/storage.md. */
  files: FileStorageConfig;
}

/**
 * SHUTU_FILE_STORAGE=local (default): a directory, SHUTU_FILES_DIR or else DATA_DIR (a shared
 * mount when several processes run). SHUTU_FILE_STORAGE=s3: an S3-compatible bucket.
 */
export type FileStorageConfig =
  /** dir absent: the data directory (read when used, so a copied config with another dataDir follows it). */
  | { kind: 'local'; dir: string | undefined }
  | {
      kind: 's3';
      bucket: string;
      /** SHUTU_S3_ENDPOINT: an S3-compatible server (MinIO, Ceph, OSS, COS…); absent means AWS itself. */
      endpoint: string | undefined;
      region: string;
      /** Absent: the SDK's own chain (AWS_ACCESS_KEY_ID…, instance role). */
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      /** bucket in the path (http://host/bucket/key) rather than the host name; default on with an endpoint. */
      forcePathStyle: boolean;
      /** Prepended to every key ('shutu/'): several installations in one bucket. */
      prefix: string;
    };

const FILE_STORAGE_KINDS = ['local', 's3'];

function fileStorageOf(env: NodeJS.ProcessEnv): FileStorageConfig {
  const kind = (env.SHUTU_FILE_STORAGE || 'local').trim().toLowerCase();
  if (!FILE_STORAGE_KINDS.includes(kind)) throw new Error(`SHUTU_FILE_STORAGE: 只能是 local 或 s3（当前：${env.SHUTU_FILE_STORAGE}）`);
  if (kind === 'local') return { kind: 'local', dir: env.SHUTU_FILES_DIR ? path.resolve(env.SHUTU_FILES_DIR) : undefined };
  const bucket = env.SHUTU_S3_BUCKET?.trim();
  if (!bucket) throw new Error('SHUTU_S3_BUCKET: 文件存储为 s3 时必须填写存储桶名称');
  const endpoint = env.SHUTU_S3_ENDPOINT?.trim() || undefined;
  const pathStyle = env.SHUTU_S3_PATH_STYLE?.trim().toLowerCase();
  const prefix = (env.SHUTU_S3_PREFIX ?? '').trim().replace(/^\/+/, '');
  return {
    kind: 's3',
    bucket,
    endpoint,
    region: env.SHUTU_S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.SHUTU_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.SHUTU_S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: pathStyle ? pathStyle !== 'false' && pathStyle !== '0' : endpoint !== undefined,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
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

/** The checkout's root (its package.json names the "shutu" workspace): from the sources or from the bundle in apps/server/dist. */
function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'shutu') return dir;
    } catch {
      // No package.json here: look higher.
    }
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

const repoRoot = findRepoRoot(import.meta.dirname);

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
    duckdbMemoryLimit: env.SHUTU_DUCKDB_MEMORY_LIMIT || '1GB',
    duckdbThreads: env.SHUTU_DUCKDB_THREADS ? Number(env.SHUTU_DUCKDB_THREADS) : undefined,
    duckdbEngineProcess: env.SHUTU_DUCKDB_PROCESS !== '0',
    uploadMaxBytes: Number(env.UPLOAD_MAX_MB ?? 200) * 1024 * 1024,
    spreadsheetMaxBytes: Number(env.UPLOAD_SPREADSHEET_MAX_MB ?? 50) * 1024 * 1024,
    selfUrl: env.SHUTU_SELF_URL || undefined,
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    thumbnails: env.SHUTU_THUMBNAILS !== '0',
    subscriptionCatchUpMs: positiveNumber(env.SHUTU_SUBSCRIPTION_CATCH_UP_MINUTES, 60) * 60_000,
    subscriptionStaleClaimMs: positiveNumber(env.SHUTU_SUBSCRIPTION_STALE_CLAIM_SECONDS, 600) * 1000,
    adminPassword: env.SHUTU_ADMIN_PASSWORD || undefined,
    files: fileStorageOf(env),
  };
}
