import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBDriver, DUCKDB_LOCKED_DOWN } from '../duckdb.ts';
import { collect } from '../stream.ts';
import { duckdbCsvOutputDir, openDuckDBInstance, sweepDeadCsvOutputDirs } from './copy-csv.ts';

/**
 * An embedded DuckDB opened with `csvOutput` (the server's DuckDB sources) writes a SELECT's rows
 * as a CSV file itself (capability writesCsvFile) into this process's private directory — and is
 * otherwise as locked down as any data source: no other file, no setting switched back on.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-copy-csv-'));
const file = path.join(dir, 'w.duckdb');
const driver = new DuckDBDriver({ type: 'duckdb', path: file, csvOutput: true });
afterAll(async () => {
  await driver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('DuckDB writing CSV files (csvOutput)', () => {
  it('writes a bound SELECT as RFC 4180 CSV with CRLF lines into its private directory', async () => {
    expect((await driver.info()).capabilities.writesCsvFile).toBe(true);
    await driver.bulkLoad(
      't',
      [
        { name: 'id', type: 'INTEGER' },
        { name: 's', type: 'STRING' },
      ],
      [
        [1, 'a,b'],
        [2, 'q"q'],
        [3, '换\n行'],
        [4, null],
        [5, '普通'],
      ],
    );
    const part = await driver.copySelectToCsvFile({ sql: 'SELECT id, s FROM t WHERE id >= $1 ORDER BY id', params: [2] });
    try {
      expect(part.rows).toBe(4);
      expect(path.dirname(part.file).startsWith(path.join(os.tmpdir(), 'shutu-duckdb-csv-'))).toBe(true);
      expect((await fs.promises.stat(path.dirname(part.file))).mode & 0o777).toBe(0o700);
      expect(await fs.promises.readFile(part.file, 'utf8')).toBe('2,"q""q"\r\n3,"换\n行"\r\n4,\r\n5,普通\r\n');
    } finally {
      await fs.promises.rm(part.file, { force: true });
    }
  });

  it('refuses anything but one SELECT, and a query stopped by its timeout leaves no file', async () => {
    await expect(driver.copySelectToCsvFile({ sql: 'DROP TABLE t', params: [] })).rejects.toMatchObject({ kind: 'readOnly' });
    await expect(driver.copySelectToCsvFile({ sql: 'SELECT 1; SELECT 2', params: [] })).rejects.toMatchObject({ kind: 'readOnly' });
    const slow = driver.copySelectToCsvFile({ sql: 'SELECT count(*) FROM range(100000000000) a', params: [] }, { timeoutMs: 300 });
    await expect(slow).rejects.toMatchObject({ kind: 'timeout' });
    expect(await fs.promises.readdir(duckdbCsvOutputDir())).toEqual([]);
  });

  it('stays locked down: no other file, no setting switched back on, the same instance for every opener', async () => {
    await expect(collect(driver.query("SELECT * FROM read_csv('/etc/passwd')"))).rejects.toThrow(/disabled by configuration|Permission/);
    const instance = await openDuckDBInstance(file, { csvOutput: true }, DUCKDB_LOCKED_DOWN);
    const c = await instance.connect();
    try {
      for (const sql of ['SET enable_external_access = true', "SET allowed_directories = ['/']", 'SET lock_configuration = false']) {
        await expect(c.run(sql), sql).rejects.toThrow();
      }
      await expect(c.run(`COPY (SELECT 1) TO '${path.join(dir, 'outside.csv')}'`)).rejects.toThrow(/disabled by configuration|Permission/);
      expect(fs.existsSync(path.join(dir, 'outside.csv'))).toBe(false);
    } finally {
      c.closeSync();
    }
  });

  it('a driver without csvOutput keeps the full lockdown and has no such capability', async () => {
    const plain = new DuckDBDriver({ type: 'duckdb', path: ':memory:' });
    try {
      expect((await plain.info()).capabilities.writesCsvFile).toBe(false);
      await expect(plain.copySelectToCsvFile({ sql: 'SELECT 1', params: [] })).rejects.toMatchObject({ kind: 'readOnly' });
    } finally {
      await plain.close();
    }
  });

  it("removes the private directory of a process that is gone (killed mid-export), never a live one's", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'csv-sweep-'));
    try {
      const { spawnSync } = await import('node:child_process');
      const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
      const dead = path.join(tmp, `shutu-duckdb-csv-${gone}-abc123`);
      const live = path.join(tmp, `shutu-duckdb-csv-${process.ppid}-def456`);
      const other = path.join(tmp, 'shutu-duckdb-csv-xyz');
      for (const dir of [dead, live, other]) {
        fs.mkdirSync(dir);
        fs.writeFileSync(path.join(dir, 'part.csv'), '1,2\r\n');
      }
      expect(sweepDeadCsvOutputDirs(tmp)).toEqual([path.basename(dead)]);
      expect(fs.existsSync(dead)).toBe(false);
      expect(fs.existsSync(path.join(live, 'part.csv'))).toBe(true);
      expect(fs.existsSync(other)).toBe(true);
      expect(path.basename(duckdbCsvOutputDir())).toMatch(new RegExp(`^shutu-duckdb-csv-${process.pid}-`));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
