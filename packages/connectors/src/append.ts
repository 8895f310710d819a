import {
  BIGINT,
  DATE,
  DOUBLE,
  DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  TIMESTAMP,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Dialect } from '@shutu/query';
import { canonicalRow, checkColumns, loadFailed, newIdentifier } from './bulk.ts';
import { connectorError, ConnectorError } from './errors.ts';
import type { LoadColumn, LoadColumnType, LoadRow, LoadValue, RowCondition } from './types.ts';

/**
 * Appending rows to a table that lives on (docs/heatmap.md "Tracked clicks in the warehouse"):
 * the write side of event ingestion. `appendRows` creates the table on first use and otherwise
 * checks that it has exactly the appended columns, in order (the appender writes by position);
 * the rows of one call are stored all or none (one transaction). `deleteRows` removes rows by
 * bound conditions (retention, a deleted site). DuckDB appends columnar data chunks through its
 * Appender — one native call per column of up to 2 048 rows instead of one per value.
 */

/** DuckDB's vectors hold at most this many rows (STANDARD_VECTOR_SIZE). */
const CHUNK_ROWS = 2048;

const COLUMN_TYPES: Record<LoadColumnType, { sql: string; type: DuckDBType }> = {
  STRING: { sql: 'VARCHAR', type: VARCHAR },
  NUMBER: { sql: 'DOUBLE', type: DOUBLE },
  INTEGER: { sql: 'BIGINT', type: BIGINT },
  DATETIME: { sql: 'TIMESTAMP', type: TIMESTAMP },
  DATE: { sql: 'DATE', type: DATE },
};

const DAY_MS = 86_400_000;
const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?$/;

/** Microseconds since the epoch of a Date's UTC reading or a canonical 'YYYY-MM-DD[ HH:mm:ss[.ffffff]]' (wall clock as UTC). */
function epochMicros(value: string | Date): bigint {
  if (value instanceof Date) return BigInt(value.getTime()) * 1000n;
  const m = CANONICAL.exec(value)!;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  return BigInt(ms) * 1000n + BigInt((m[7] ?? '').padEnd(6, '0') || '0');
}

/** One value for a vector of the table's own type (the table may be older than these columns' types: INTEGER or BIGINT alike). */
function duckValue(typeId: DuckDBTypeId, value: string | number | Date | null): DuckDBValue {
  if (value === null) return null;
  switch (typeId) {
    case DuckDBTypeId.VARCHAR:
      return String(value);
    case DuckDBTypeId.BIGINT:
      return BigInt(value as number | string);
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.FLOAT:
      return Number(value);
    case DuckDBTypeId.TIMESTAMP:
      return new DuckDBTimestampValue(epochMicros(value as string | Date));
    case DuckDBTypeId.DATE:
      return new DuckDBDateValue(Math.floor(Number(epochMicros(value as string | Date) / 1000n) / DAY_MS));
    default:
      throw connectorError('invalid', 'appendColumns', { name: '', detail: `unsupported column type ${typeId}` });
  }
}

/** Every value already in the form the vectors take (the ingestion's rows): no copy, no conversion. */
function alreadyPrepared(columns: readonly LoadColumn[], row: LoadRow): boolean {
  if (row.length !== columns.length) return false;
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    if (value === null) continue;
    switch (columns[i]!.type) {
      case 'STRING':
        if (typeof value !== 'string') return false;
        break;
      case 'INTEGER':
        if (!Number.isSafeInteger(value)) return false;
        break;
      case 'NUMBER':
        if (typeof value !== 'number' || !Number.isFinite(value)) return false;
        break;
      default:
        if (!(value instanceof Date) || Number.isNaN(value.getTime())) return false;
    }
  }
  return true;
}

/**
 * A row's values in the form the vectors take: Dates of DATETIME/DATE columns pass as they are
 * (their UTC reading, no text round trip); everything else is checked and converted like a bulk load.
 */
function prepared(columns: readonly LoadColumn[], row: LoadRow, rowNumber: number): readonly (string | number | Date | null)[] {
  if (alreadyPrepared(columns, row)) return row as readonly (string | number | Date | null)[];
  const timeAt: number[] = [];
  const plain: LoadValue[] = row.map((value, i) => {
    const type = columns[i]?.type;
    if (value instanceof Date && (type === 'DATETIME' || type === 'DATE') && !Number.isNaN(value.getTime())) {
      timeAt.push(i);
      return null;
    }
    return value;
  });
  const out: (string | number | Date | null)[] = canonicalRow(columns, plain, rowNumber);
  for (const i of timeAt) out[i] = row[i] as Date;
  return out;
}

async function tableColumns(connection: DuckDBConnection, schema: string | undefined, table: string): Promise<string[] | null> {
  const found = await connection.runAndReadAll(
    `SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND lower(table_name) = lower($2)
     ORDER BY column_index`,
    [schema ?? null, table],
  );
  const names = found.getRows().map((r) => String(r[0]));
  return names.length === 0 ? null : names;
}

/** Creates the table when missing, else checks its columns are the appended ones in order (DuckDB matches names ignoring case). */
async function ensureAppendTable(
  connection: DuckDBConnection,
  dialect: Dialect,
  qualified: string,
  table: string,
  columns: readonly LoadColumn[],
  schema?: string,
) {
  const names = checkColumns(dialect, columns);
  const existing = await tableColumns(connection, schema, table);
  if (existing === null) {
    await connection.run(`CREATE TABLE IF NOT EXISTS ${qualified} (${names.map((n, i) => `${n} ${COLUMN_TYPES[columns[i]!.type].sql}`).join(', ')})`);
    for (const [i, c] of columns.entries()) {
      if (c.comment) await connection.run(`COMMENT ON COLUMN ${qualified}.${names[i]} IS ${dialect.escapeString(c.comment)}`);
    }
    return;
  }
  const wanted = columns.map((c) => c.name.toLowerCase());
  if (existing.length !== wanted.length || existing.some((n, i) => n.toLowerCase() !== wanted[i])) {
    throw connectorError('invalid', 'appendColumns', { name: table, detail: `${existing.join(', ')} ≠ ${columns.map((c) => c.name).join(', ')}` });
  }
}

/** Appends `rows` to `table` on `connection` (creating it when missing), all or none. */
export async function duckdbAppendRows(
  connection: DuckDBConnection,
  dialect: Dialect,
  table: string,
  columns: readonly LoadColumn[],
  rows: readonly LoadRow[],
  schema?: string,
): Promise<{ rows: number }> {
  const qualified = `${schema ? `${dialect.quoteIdentifier(schema)}.` : ''}${newIdentifier(dialect, table)}`;
  // Checked (and converted) before anything is written: a bad row refuses the whole call.
  const values = rows.map((row, i) => prepared(columns, row, i + 1));
  await ensureAppendTable(connection, dialect, qualified, table, columns, schema).catch((error: unknown) => {
    throw loadFailed(error);
  });
  if (rows.length === 0) return { rows: 0 };
  await connection.run('BEGIN TRANSACTION');
  try {
    const appender = await connection.createAppender(table, schema ?? null);
    try {
      const types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
      for (let start = 0; start < values.length; start += CHUNK_ROWS) {
        const slice = values.slice(start, start + CHUNK_ROWS);
        const chunk = DuckDBDataChunk.create(types, slice.length);
        chunk.setColumns(
          types.map((type, c) => {
            // Clicks of one flush share few instants: one timestamp value per distinct Date.
            let last: Date | string | null = null;
            let lastValue: DuckDBValue = null;
            return slice.map((row) => {
              const value = row[c] ?? null;
              if (value !== null && value === last) return lastValue;
              last = value instanceof Date || typeof value === 'string' ? value : null;
              lastValue = duckValue(type.typeId, value);
              return lastValue;
            });
          }),
        );
        appender.appendDataChunk(chunk);
      }
      appender.closeSync();
    } catch (error) {
      try {
        appender.closeSync();
      } catch {
        // the rolled-back transaction discards what the appender held
      }
      throw error;
    }
    await connection.run('COMMIT');
    return { rows: rows.length };
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error instanceof ConnectorError ? error : loadFailed(error);
  }
}

const COMPARISONS = new Set<RowCondition['op']>(['=', '<']);

/** `WHERE` text and bound values of conditions (column names quoted, values bound as `$n`). */
export function conditionSql(dialect: Dialect, where: readonly RowCondition[]): { sql: string; values: (string | number)[] } {
  const values: (string | number)[] = [];
  const parts = where.map((w) => {
    if (!COMPARISONS.has(w.op)) throw connectorError('invalid', 'appendColumns', { name: w.column, detail: `operator ${String(w.op)}` });
    values.push(w.value instanceof Date ? w.value.toISOString().replace('T', ' ').replace('Z', '') : w.value);
    return `${newIdentifier(dialect, w.column)} ${w.op} ${dialect.placeholder(values.length)}`;
  });
  return { sql: parts.length === 0 ? 'TRUE' : parts.join(' AND '), values };
}

/** Deletes the rows matching every condition; a missing table has none. */
export async function duckdbDeleteRows(
  connection: DuckDBConnection,
  dialect: Dialect,
  table: string,
  where: readonly RowCondition[],
  schema?: string,
): Promise<{ rows: number }> {
  const qualified = `${schema ? `${dialect.quoteIdentifier(schema)}.` : ''}${newIdentifier(dialect, table)}`;
  const { sql, values } = conditionSql(dialect, where);
  if ((await tableColumns(connection, schema, table)) === null) return { rows: 0 };
  const result = await connection.run(`DELETE FROM ${qualified} WHERE ${sql}`, values);
  return { rows: Number(result.rowsChanged) };
}
