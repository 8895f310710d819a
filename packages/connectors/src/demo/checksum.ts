/**
 * Order-sensitive table checksums: the xor of md5(rowid, row as text) over all rows, with the
 * row count. Equal checksums mean equal contents in equal physical order. Streaming and parallel,
 * so it also runs on 10M-row tables (bench/warehouse).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { DEMO_TABLE_NAMES } from './schema.ts';

export async function tableChecksums(connection: DuckDBConnection, tables: readonly string[] = DEMO_TABLE_NAMES): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a demo table name: ${table}`);
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::VARCHAR || ':' || coalesce(bit_xor(md5_number(rowid::VARCHAR || chr(9) || t::VARCHAR))::VARCHAR, '0') FROM ${table} t`,
    );
    out[table] = String(reader.getRowsJson()[0]?.[0]);
  }
  return out;
}
