import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBDriver } from './duckdb.ts';
import { duckdbCsvOutputDir } from './duckdb/copy-csv.ts';
import { collect } from './stream.ts';
import type { LoadColumn } from './types.ts';

/**
 * An instance that may read its private directory (csvOutput) loads a CSV itself: the file is
 * linked in there for the load only, a refused file leaves neither table nor link, and the
 * table is in the database file afterwards (checkpointed), not only in memory.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-csv-file-'));
const database = path.join(dir, 'w.duckdb');
const driver = new DuckDBDriver({ type: 'duckdb', path: database, csvOutput: true });
afterAll(async () => {
  await driver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const columns: LoadColumn[] = [
  { name: 'amount', type: 'NUMBER' },
  { name: 'city', type: 'STRING' },
  { name: 'at', type: 'DATETIME' },
];
const linksLeft = () => fs.readdirSync(duckdbCsvOutputDir()).filter((name) => name.startsWith('load-'));

function csv(text: string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(file, text);
  return file;
}

describe('bulkLoadCsvFile by the instance itself (csvOutput)', () => {
  it('loads the converted rows, leaves no link behind and writes the table to the database file', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `${i}.5,"城市 ${i % 7}",2024-03-05 08:30:${String(i % 60).padStart(2, '0')}`);
    const file = csv(`金额,城市,时间\n${rows.join('\n')}\n`);
    const walBefore = fs.existsSync(`${database}.wal`) ? fs.statSync(`${database}.wal`).size : 0;
    expect(await driver.bulkLoadCsvFile('loaded', columns, { path: file, delimiter: ',', skipLines: 1, fields: 3 })).toEqual({ rows: 5000 });
    const { rows: sums } = await collect(driver.query('SELECT count(*) AS n, sum(amount) AS total, max("at") AS last, min(city) AS city FROM loaded'));
    expect(sums).toEqual([{ n: 5000, total: 12_500_000, last: '2024-03-05T08:30:59', city: '城市 0' }]);
    expect(linksLeft()).toEqual([]);
    expect(fs.existsSync(file)).toBe(true);
    // Checkpointed: the rows are in the database file, the write-ahead log did not keep them.
    const walAfter = fs.existsSync(`${database}.wal`) ? fs.statSync(`${database}.wal`).size : 0;
    expect(walAfter).toBeLessThanOrEqual(walBefore);
  });

  it('refuses a bad value with nothing left: no table, no link', async () => {
    const file = csv('金额,城市,时间\n1,a,2024-03-05 08:30:00\nabc,b,2024-03-05 08:30:00\n');
    await expect(driver.bulkLoadCsvFile('refused', columns, { path: file, delimiter: ',', skipLines: 1, fields: 3 })).rejects.toMatchObject({
      kind: 'invalid',
    });
    expect(await driver.tableExists('refused')).toBe(false);
    expect(linksLeft()).toEqual([]);
  });

  it('still cannot read files outside its directory from a query', async () => {
    const file = csv('a\n1\n');
    await expect(collect(driver.query(`SELECT * FROM read_csv('${file}')`))).rejects.toThrow();
  });
});
