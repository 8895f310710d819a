/**
 * @shutu/connectors — one driver interface, one driver per engine (DuckDB, PostgreSQL,
 * MySQL/MariaDB, ClickHouse). Behaviour is switched on capability flags, never on engine
 * names. See README.md.
 *
 *   types          Driver, DataSourceConfig, DriverCapabilities (extends the compiler's
 *                  QueryCapabilities: one definition of the shared flags), rows, columns
 *   capabilities   per-dialect defaults; the compiler dialect for a probed server
 *   normalise      one normal form for values (numbers, big integers, dates) on every engine
 *   stream         the streaming skeleton: statement timeout, cancellation, error mapping
 *   bulk           new-table loading: names, value coercion, batches, private staging names
 *   duckdb / postgres / mysql / clickhouse   the drivers;  factory   openDriver(config)
 *   duckdb-process  DuckDB in an engine process of its own (config `engineProcess`)
 */
import type { QueryCapabilities } from '@shutu/query';

export * from './types.ts';
export { openDriver } from './factory.ts';
export { ConnectorError, connectorMessages, type ConnectorErrorKind, type ConnectorMessageKey } from './errors.ts';
export { defaultCapabilities, dialectFor } from './capabilities.ts';
export { collect } from './stream.ts';
export { normalise, viewDataTypeOf, kindOfType, type ValueKind } from './normalise.ts';
export { parseDateTime, MAX_IDENTIFIER_BYTES, STAGING_TABLE_PREFIX, stagingTableName, isStagingTable } from './bulk.ts';
export { DuckDBDriver, DUCKDB_LOCKED_DOWN } from './duckdb.ts';
export { openDuckDBInstance } from './duckdb/copy-csv.ts';
export { PostgresDriver } from './postgres.ts';
export { MySqlDriver } from './mysql.ts';
export { ClickHouseDriver } from './clickhouse.ts';

/** The compiler's capability flags, under the name this package reserved for them. */
export type DialectCapabilities = QueryCapabilities;
export * from './demo/index.ts';
