import type { ViewDataType } from '@shutu/contracts';
import type { Dialect, QueryCapabilities, QueryDialect, SqlInspection } from '@shutu/query';

/** The engines a data source can be. */
export const DATA_SOURCE_TYPES = ['duckdb', 'postgres', 'mysql', 'clickhouse'] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];

/** A data source's connection settings (decrypted). `path` is DuckDB's file (':memory:' when absent). */
export interface DataSourceConfig {
  type: DataSourceType;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  path?: string;
  /** Connect timeout (default 3 500 ms, so an unreachable host is reported within 5 s). */
  connectTimeoutMs?: number;
  /** Statement timeout used when a query names none (default 60 000 ms). */
  defaultTimeoutMs?: number;
  /** Most connections a driver keeps open at once (default 5). */
  maxConnections?: number;
  /** Embedded DuckDB: its memory_limit (e.g. '1GB'; absent: DuckDB's default, 80% of the machine) and threads. */
  memoryLimit?: string;
  threads?: number;
  /** Embedded DuckDB: the engine may write CSV files into a private directory of this process (`copySelectToCsvFile`). */
  csvOutput?: boolean;
  /**
   * Embedded DuckDB: the engine runs in a process of its own (duckdb-process/), one per database
   * file, so its buffer pool and working memory are not the server's.
   */
  engineProcess?: boolean;
}

/**
 * What a driver can do: the query compiler's flags (one definition, in @shutu/query) plus
 * what the connector itself needs. Shared code switches on these, never on an engine's name.
 */
export interface DriverCapabilities extends QueryCapabilities {
  /** Tables carry comments (ClickHouse 18.16: only columns do). */
  tableComments: boolean;
  /** Columns carry comments. */
  columnComments: boolean;
  /** The engine enforces the statement timeout itself; otherwise the driver interrupts the query. */
  serverStatementTimeout: boolean;
  /** The engine refuses writes in the session (read-only transaction or setting); otherwise the driver checks the statement type. */
  readOnlySession: boolean;
  /**
   * How the engine matches a table name written in SQL: `insensitive` (DuckDB, quoted or
   * not), `foldLower` (PostgreSQL: unquoted names fold to lower case, quoted ones match
   * exactly) or `sensitive` (exactly as written).
   */
  tableNameCase: 'insensitive' | 'foldLower' | 'sensitive';
  /** The engine runs on this machine (in this process or its engine process) and loads a CSV file of it itself (`bulkLoadCsvFile`). */
  loadsLocalCsv: boolean;
  /** The engine writes a SELECT's rows as a CSV file of this machine itself (`copySelectToCsvFile`). */
  writesCsvFile: boolean;
}

/** The dialect name the compiler speaks plus what this server can do. */
export interface DriverInfo {
  dialect: QueryDialect;
  capabilities: DriverCapabilities;
  serverVersion: string;
}

export type TableType = 'TABLE' | 'VIEW';

export interface TableInfo {
  /** Schema (PostgreSQL, DuckDB) or database (MySQL, ClickHouse) holding the table. */
  schema: string;
  name: string;
  type: TableType;
  /** '' when the table has no comment or the engine keeps none. */
  comment: string;
}

export interface ColumnInfo {
  name: string;
  comment: string;
  /** The engine's own spelling of the type, e.g. `numeric(18,2)`, `Nullable(String)`. */
  databaseType: string;
  viewDataType: ViewDataType;
}

/** A table to read: a bare name is looked up in the connection's default schema. */
export type TableRef = string | { schema?: string | null; name: string };

/** A normalised value: the same query gives the same values on every engine. */
export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

export interface ResultColumn {
  /** Key of the value in each row (duplicate names get `_2`, `_3`, …). */
  name: string;
  databaseType: string;
  viewDataType: ViewDataType;
}

export type ParamValue = string | number | boolean | null;

export interface QueryOptions {
  /** Statement timeout for the whole query, streaming included (default: the config's, 60 s). */
  timeoutMs?: number;
  /** Aborting cancels the query on the server; the stream then throws a `cancelled` error. */
  signal?: AbortSignal;
  /**
   * Binary columns as their bytes (Uint8Array) instead of base64 text. Only DuckDB honours it
   * (the order-data export's CSV slices, tens of MB each: base64 would double the work).
   */
  rawBytes?: boolean;
  /**
   * The most rows the statement can return, by its own LIMIT (RenderedSql's `rowLimit`). A
   * driver may read such a result whole in one step rather than stream it; without it, or
   * above the driver's bound, the result streams.
   */
  rowLimit?: number;
}

/** Rows of one read-only query. Iterate once; leaving the loop early cancels the query. */
export interface QueryStream extends AsyncIterable<Row> {
  /** Result columns, known once iteration has produced the result header. */
  readonly columns: readonly ResultColumn[] | null;
  /**
   * The same rows in the driver's batches (a chunk of the engine's result each), with the same
   * timeout, cancellation and errors: one await per batch instead of one per row. A stream is
   * iterated once, by rows or by batches.
   */
  batches(): AsyncIterable<Row[]>;
  /** Cancels the query; a pending or later read throws a `cancelled` error. */
  cancel(): void;
}

/** Types a bulk-loaded column can have: the three view data types plus two finer ones. */
export type LoadColumnType = ViewDataType | 'INTEGER' | 'DATE';

export interface LoadColumn {
  name: string;
  type: LoadColumnType;
  comment?: string;
}

/** One row to load: values in column order. Strings are parsed by the column's type. */
export type LoadValue = string | number | bigint | boolean | Date | null | undefined;
export type LoadRow = readonly LoadValue[];

export interface BulkLoadOptions {
  /** Schema / database of the new table (default: the connection's). */
  schema?: string;
  /** Table comment (dropped where the engine keeps none: see `tableComments`). */
  comment?: string;
  /** Rows per INSERT (engine default when absent). */
  batchSize?: number;
  /** Cancels the load; the half-built table is dropped. */
  signal?: AbortSignal;
}

/** Where a table written by the connector lives. */
export interface TableOptions {
  /** Schema / database (default: the connection's). */
  schema?: string;
}

/**
 * A CSV file of this machine for `bulkLoadCsvFile`: UTF-8, quote and escape `"`, lines ending
 * in \n or \r\n (never a lone \r); '' is NULL; blank lines are skipped.
 */
export interface CsvFileSource {
  path: string;
  delimiter: string;
  /** Lines before the first data line (the header). */
  skipLines: number;
  /** Most fields a line may have (at least the column count); those past the columns must be empty. */
  fields: number;
}

export interface BulkLoadResult {
  rows: number;
}

/** A condition of `deleteRows`: a column, a comparison and a bound value (a Date by its UTC reading). */
export interface RowCondition {
  column: string;
  op: '=' | '<';
  value: string | number | Date;
}

export type { SqlInspection, SqlNameRef } from '@shutu/query';

/** One interface for every engine. All errors are `ConnectorError`s with a Chinese message. */
export interface Driver {
  readonly type: DataSourceType;
  /** Connects, checks the server answers and probes its capabilities (throws within ~5 s when unreachable). */
  testConnection(): Promise<DriverInfo>;
  /** Dialect name, capabilities and server version (probed once, then cached). */
  info(): Promise<DriverInfo>;
  /** The compiler dialect with this server's capabilities: pass it to `compileCubeQuery`. */
  dialect(): Promise<Dialect>;
  listTables(): Promise<TableInfo[]>;
  /** The schema (PostgreSQL, DuckDB) or database (MySQL, ClickHouse) unqualified table names resolve to. */
  defaultSchema(): Promise<string>;
  listColumns(table: TableRef): Promise<ColumnInfo[]>;
  /** One read-only statement; `params` bind the dialect's placeholders (or are inlined, escaped, where the server has none). */
  query(sql: string, params?: readonly ParamValue[], options?: QueryOptions): QueryStream;
  /** Creates a new table and inserts the rows in batches; the table is dropped again if loading fails. */
  bulkLoad(table: string, columns: readonly LoadColumn[], rows: AsyncIterable<LoadRow> | Iterable<LoadRow>, options?: BulkLoadOptions): Promise<BulkLoadResult>;
  /**
   * Loads a CSV file of this machine into a new table by the engine itself (capability
   * `loadsLocalCsv`). Values convert only in their plain forms (numbers with optional
   * thousands separators, 'YYYY-MM-DD[ HH:mm:ss]'); anything else, or a malformed file, is
   * a `csvRefused` error with nothing left behind, and the caller loads through `bulkLoad`.
   */
  bulkLoadCsvFile?(table: string, columns: readonly LoadColumn[], file: CsvFileSource, options?: BulkLoadOptions): Promise<BulkLoadResult>;
  /**
   * Creates a new table filled by one read-only SELECT over this source, run by the engine itself
   * (INSERT … SELECT: no row passes through this process); the table is dropped again if it fails.
   * Offered where the engine can (DuckDB); others leave it out and the caller streams rows to `bulkLoad`.
   */
  bulkLoadSelect?(
    table: string,
    columns: readonly LoadColumn[],
    select: { sql: string; params: readonly ParamValue[] },
    options?: BulkLoadOptions,
  ): Promise<BulkLoadResult>;
  /**
   * Runs one read-only SELECT (values bound) as a new CSV file written by the engine itself
   * (capability `writesCsvFile`): RFC 4180, CRLF, NULL empty; a header line of the SELECT's
   * column names only with `header`. The caller reads or moves the file and removes it. Others
   * leave it out and the caller streams rows.
   */
  copySelectToCsvFile?(
    select: { sql: string; params: readonly ParamValue[] },
    options?: { timeoutMs?: number; signal?: AbortSignal; header?: boolean },
  ): Promise<{ file: string; rows: number }>;
  /**
   * Parses one statement with the engine's own parser, without running it. Offered only by
   * engines whose parser can be asked (DuckDB: json_serialize_sql); checks on user SQL use it
   * when present, on top of their own tokenizer.
   */
  inspectSql?(sql: string): Promise<SqlInspection>;
  /**
   * Appends rows to a table that lives on (event ingestion), creating it with these columns when
   * it does not exist; an existing table must have exactly these columns in this order. The rows
   * of one call are stored all or none. Offered by engines with a bulk append path (DuckDB: the
   * Appender); others leave it out.
   */
  appendRows?(table: string, columns: readonly LoadColumn[], rows: readonly LoadRow[], options?: TableOptions): Promise<BulkLoadResult>;
  /** Deletes the rows matching every condition (a missing table has none); beside `appendRows`. */
  deleteRows?(table: string, where: readonly RowCondition[], options?: TableOptions): Promise<BulkLoadResult>;
  /** Whether a table or view of this name exists (matched the way the engine matches names). */
  tableExists(table: string, options?: TableOptions): Promise<boolean>;
  /**
   * Gives a table its final name in one atomic step (a loaded staging table becomes visible):
   * 409 `tableExists` when `to` is taken, `tableNotFound` when `from` is gone.
   */
  renameTable(from: string, to: string, options?: TableOptions): Promise<void>;
  /** Drops a table when it exists (a staging table left by a failed or interrupted load). */
  dropTable(table: string, options?: TableOptions): Promise<void>;
  close(): Promise<void>;
}

/** Connect timeout unless the config names one: an unreachable host is reported within 5 s. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3500;
