import type { Dialect } from '@shutu/query';
import { dialectFor } from './capabilities.ts';
import { collect } from './stream.ts';
import type {
  BulkLoadOptions,
  BulkLoadResult,
  ColumnInfo,
  DataSourceType,
  Driver,
  DriverInfo,
  LoadColumn,
  LoadRow,
  ParamValue,
  QueryOptions,
  QueryStream,
  Row,
  TableInfo,
  TableOptions,
  TableRef,
} from './types.ts';

/** Statement timeout when neither the call nor the data source names one. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

/** What every driver does the same way; each engine supplies only what differs. */
export abstract class DriverBase implements Driver {
  abstract readonly type: DataSourceType;
  abstract info(): Promise<DriverInfo>;
  abstract listTables(): Promise<TableInfo[]>;
  abstract listColumns(table: TableRef): Promise<ColumnInfo[]>;
  abstract query(sql: string, params?: readonly ParamValue[], options?: QueryOptions): QueryStream;
  abstract bulkLoad(
    table: string,
    columns: readonly LoadColumn[],
    rows: AsyncIterable<LoadRow> | Iterable<LoadRow>,
    options?: BulkLoadOptions,
  ): Promise<BulkLoadResult>;
  abstract tableExists(table: string, options?: TableOptions): Promise<boolean>;
  abstract renameTable(from: string, to: string, options?: TableOptions): Promise<void>;
  abstract dropTable(table: string, options?: TableOptions): Promise<void>;
  abstract close(): Promise<void>;
  /** The statement answering the schema (or database) that unqualified table names resolve to. */
  protected abstract readonly defaultSchemaSql: string;
  #defaultSchema: Promise<string> | undefined;

  /** Probing the server is the connection test: it connects, asks the version and the capabilities. */
  testConnection(): Promise<DriverInfo> {
    return this.info();
  }

  async dialect(): Promise<Dialect> {
    return dialectFor(await this.info());
  }

  /** The schema (or database) unqualified names resolve to; asked once per driver. */
  defaultSchema(): Promise<string> {
    this.#defaultSchema ??= this.rows(this.defaultSchemaSql).then((rows) => String(Object.values(rows[0] ?? {})[0] ?? ''));
    // A failure (server down) is not remembered: the next call asks again.
    this.#defaultSchema.catch(() => (this.#defaultSchema = undefined));
    return this.#defaultSchema;
  }

  /** The statement timeout of one call: the call's, else the data source's, else the default. */
  protected timeoutOf(options: QueryOptions, defaultTimeoutMs: number | undefined): number {
    return options.timeoutMs ?? defaultTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  }

  /** Every row of a small introspection query. */
  protected async rows(sql: string, params: ParamValue[] = []): Promise<Row[]> {
    return (await collect(this.query(sql, params))).rows;
  }
}
