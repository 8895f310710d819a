import { getDialect, withCapabilities, type Dialect, type QueryCapabilities, type QueryDialect } from '@shutu/query';
import type { DriverCapabilities, DriverInfo } from './types.ts';

/** What the connector adds to the compiler's flags, per dialect, before probing the server. */
const CONNECTOR_DEFAULTS: Record<QueryDialect, Omit<DriverCapabilities, keyof QueryCapabilities>> = {
  // Embedded: no server to enforce a timeout or a read-only session; the driver interrupts
  // the query and refuses any statement that is not a SELECT. It reads a CSV file of this
  // machine itself (bulkLoadCsvFile).
  duckdb: {
    tableComments: true,
    columnComments: true,
    serverStatementTimeout: false,
    readOnlySession: false,
    tableNameCase: 'insensitive',
    loadsLocalCsv: true,
    writesCsvFile: false, // only a driver opened with csvOutput (DuckDBDriver.info)
  },
  postgres: {
    tableComments: true,
    columnComments: true,
    serverStatementTimeout: true,
    readOnlySession: true,
    tableNameCase: 'foldLower',
    loadsLocalCsv: false,
    writesCsvFile: false,
  },
  // Linux MySQL compares table names exactly (lower_case_table_names=0); with the setting
  // on, names are stored in lower case, so exact comparison only ever refuses more.
  mysql: {
    tableComments: true,
    columnComments: true,
    serverStatementTimeout: true,
    readOnlySession: true,
    tableNameCase: 'sensitive',
    loadsLocalCsv: false,
    writesCsvFile: false,
  },
  // 18.16's system.tables has no comment column; columns have one.
  clickhouse: {
    tableComments: false,
    columnComments: true,
    serverStatementTimeout: true,
    readOnlySession: true,
    tableNameCase: 'sensitive',
    loadsLocalCsv: false,
    writesCsvFile: false,
  },
};

/** The dialect's defaults: what a driver reports before (or without) probing its server. */
export function defaultCapabilities(dialect: QueryDialect): DriverCapabilities {
  return { ...getDialect(dialect).capabilities, ...CONNECTOR_DEFAULTS[dialect] };
}

/** The compiler dialect for a probed server: the named dialect with this server's flags. */
export function dialectFor(info: DriverInfo): Dialect {
  const base = getDialect(info.dialect);
  const changes: Partial<QueryCapabilities> = {};
  for (const key of Object.keys(base.capabilities) as (keyof QueryCapabilities)[]) {
    if (info.capabilities[key] !== base.capabilities[key]) changes[key] = info.capabilities[key];
  }
  return Object.keys(changes).length === 0 ? base : withCapabilities(base, changes);
}
