import { ClickHouseDriver } from './clickhouse.ts';
import { DuckDBDriver } from './duckdb.ts';
import { DuckDBProcessDriver } from './duckdb-process/driver.ts';
import { connectorError } from './errors.ts';
import { MySqlDriver } from './mysql.ts';
import { PostgresDriver } from './postgres.ts';
import { DATA_SOURCE_TYPES, type DataSourceConfig, type Driver } from './types.ts';

/**
 * The driver for a data source. Nothing connects yet: the first call does (and reports an
 * unreachable server within ~5 s). Close the driver when the data source is dropped or edited.
 */
export function openDriver(config: DataSourceConfig): Driver {
  switch (config.type) {
    case 'duckdb':
      return config.engineProcess === true ? new DuckDBProcessDriver(config) : new DuckDBDriver(config);
    case 'postgres':
      return new PostgresDriver(config);
    case 'mysql':
      return new MySqlDriver(config);
    case 'clickhouse':
      return new ClickHouseDriver(config);
    default:
      throw connectorError('invalid', 'queryFailed', {
        detail: `未知的数据源类型 ${String((config as { type?: unknown }).type)}，支持 ${DATA_SOURCE_TYPES.join(', ')}`,
      });
  }
}
