import { z } from 'zod';
import { zhCN } from './messages.ts';
import { optionalText, requiredText } from './common.ts';
import { pageQuerySchema } from './envelope.ts';
import { VIEW_DATA_TYPES } from './cube.ts';

/**
 * Data sources (spec 2 §3 "Data source: id, dsDb, remark, dsTypeSyl"). Field mapping:
 * - `dsDb`: the name lists and selectors show for the source (stored as ds_name); the
 *   connection's own database is `database`.
 * - `dsTypeSyl`: the engine's label (PostgreSQL, MySQL / MariaDB, …), derived from `type`.
 * - `remark`: free text.
 * Passwords never leave the server: responses carry `hasPassword`.
 */
export const DATA_SOURCE_TYPES = ['duckdb', 'postgres', 'mysql', 'clickhouse'] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];

/** dsTypeSyl of each engine. */
export const DATA_SOURCE_TYPE_LABELS: Record<DataSourceType, string> = {
  duckdb: 'DuckDB',
  postgres: 'PostgreSQL',
  mysql: 'MySQL / MariaDB',
  clickhouse: 'ClickHouse',
};

/** Engines reached over the network (host, port, user); DuckDB is a file. */
export const SERVER_DATA_SOURCE_TYPES: readonly DataSourceType[] = ['postgres', 'mysql', 'clickhouse'];
export const DATA_SOURCE_DEFAULT_PORTS: Record<Exclude<DataSourceType, 'duckdb'>, number> = { postgres: 5432, mysql: 3306, clickhouse: 8123 };
/** Engines where database and user name are required (ClickHouse defaults both to `default`). */
const NEEDS_DATABASE_AND_USER: readonly DataSourceType[] = ['postgres', 'mysql'];

/** The embedded DuckDB warehouse registered on first start. */
export const BUILTIN_WAREHOUSE_NAME = '示例数据仓库';
export const BUILTIN_WAREHOUSE_FILE = 'warehouse.duckdb';
/** A connection test answers within this time, whatever the network does. */
export const DATA_SOURCE_TEST_TIMEOUT_MS = 5000;

export const dataSourceSchema = z.object({
  id: z.number(),
  dsDb: z.string(),
  type: z.enum(DATA_SOURCE_TYPES),
  dsTypeSyl: z.string(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  database: z.string().nullable(),
  username: z.string().nullable(),
  hasPassword: z.boolean(),
  /** DuckDB file (absolute path on the server). */
  path: z.string().nullable(),
  remark: z.string().nullable(),
  isBuiltin: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type DataSource = z.infer<typeof dataSourceSchema>;

const fields = {
  dsDb: requiredText(zhCN.dsNameRequired, 50),
  type: z.enum(DATA_SOURCE_TYPES, { error: zhCN.dsTypeRequired }),
  host: optionalText(255),
  port: z
    .number({ error: zhCN.dsPortInvalid })
    .int(zhCN.dsPortInvalid)
    .min(1, zhCN.dsPortInvalid)
    .max(65535, zhCN.dsPortInvalid)
    .nullish()
    .transform((v) => v ?? null),
  database: optionalText(128),
  username: optionalText(128),
  /** Clear text over TLS in production; empty or absent on an edit keeps the stored one. Never trimmed. */
  password: z
    .string()
    .max(256)
    .nullish()
    .transform((s) => (s ? s : null)),
  path: optionalText(1000),
  remark: optionalText(255),
};

type Fields = { type: DataSourceType; host: string | null; port: number | null; database: string | null; username: string | null; path: string | null };

/** What each engine needs: host, port (and database and user for PostgreSQL / MySQL), or a file. */
function checkByType(v: Fields, ctx: z.RefinementCtx): void {
  const missing = (field: keyof Fields, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (v.type === 'duckdb') {
    if (!v.path) missing('path', zhCN.dsPathRequired);
    return;
  }
  if (!v.host) missing('host', zhCN.dsHostRequired);
  if (v.port === null) missing('port', zhCN.dsPortInvalid);
  if (NEEDS_DATABASE_AND_USER.includes(v.type)) {
    if (!v.database) missing('database', zhCN.dsDatabaseRequired);
    if (!v.username) missing('username', zhCN.dsUsernameRequired);
  }
}

export const dataSourceSaveSchema = z.object(fields).superRefine(checkByType);
export type DataSourceSave = z.input<typeof dataSourceSaveSchema>;

/**
 * Test of a form not saved yet (the name may still be empty); with `id` (editing), an empty
 * password means the stored one.
 */
export const dataSourceTestSchema = z
  .object({ ...fields, dsDb: z.string().max(50).nullish(), id: z.number().int().positive().nullish() })
  .superRefine(checkByType);
export type DataSourceTest = z.input<typeof dataSourceTestSchema>;

export const dataSourceTestResultSchema = z.object({
  dialect: z.string(),
  serverVersion: z.string(),
  /** Wall time of the test. */
  elapsedMs: z.number(),
});
export type DataSourceTestResult = z.infer<typeof dataSourceTestResultSchema>;

export const dataSourceListQuerySchema = pageQuerySchema.extend({
  /** Matches name, remark, host or database. */
  keyword: z.string().trim().max(100).optional(),
});
export type DataSourceListQuery = z.input<typeof dataSourceListQuerySchema>;

export const TABLE_KINDS = ['TABLE', 'VIEW'] as const;

/** A table or view of a source (spec 2 §3 "Table": tableViewName, tableComments). */
export const dataSourceTableSchema = z.object({
  /** Schema (PostgreSQL, DuckDB) or database (MySQL, ClickHouse) holding it. */
  schema: z.string(),
  name: z.string(),
  comment: z.string(),
  kind: z.enum(TABLE_KINDS),
});
export type DataSourceTable = z.infer<typeof dataSourceTableSchema>;

export const dataSourceColumnsQuerySchema = z.object({
  tableName: requiredText(zhCN.dsTableRequired, 255),
  schema: z.string().trim().max(255).optional(),
});
export type DataSourceColumnsQuery = z.input<typeof dataSourceColumnsQuerySchema>;

export const dataSourceColumnSchema = z.object({
  name: z.string(),
  comment: z.string(),
  /** The engine's own spelling of the type, e.g. `numeric(18,2)`. */
  dbType: z.string(),
  viewDataType: z.enum(VIEW_DATA_TYPES),
});
export type DataSourceColumn = z.infer<typeof dataSourceColumnSchema>;
