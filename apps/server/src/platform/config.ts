import path from 'node:path';

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
  };
}
