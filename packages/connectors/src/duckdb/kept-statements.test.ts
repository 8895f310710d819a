import { DuckDBInstance } from '@duckdb/node-api';
import { expect, it } from 'vitest';
import { KeptStatements } from './kept-statements.ts';

it('keeps the most recently used statements of a connection, destroys the oldest beyond its cap and all of them on drop', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const kept = new KeptStatements(2);
    const sqls = ['SELECT 1 AS n', 'SELECT 2 AS n', 'SELECT 3 AS n'];
    for (const sql of sqls) kept.keep(connection, sql, await connection.prepare(sql));
    expect(kept.count(connection)).toBe(2);
    expect(kept.take(connection, sqls[0]!)).toBeUndefined();
    const second = kept.take(connection, sqls[1]!)!;
    expect((await second.runAndReadAll()).getRows()).toEqual([[2]]);
    expect(kept.take(connection, sqls[1]!)).toBeUndefined();
    kept.keep(connection, sqls[1]!, second);
    const third = kept.take(connection, sqls[2]!)!;
    expect((await third.runAndReadAll()).getRows()).toEqual([[3]]);
    kept.keep(connection, sqls[2]!, third);
    kept.drop(connection);
    expect(kept.count(connection)).toBe(0);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});
