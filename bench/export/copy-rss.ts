/**
 * What DuckDB's own COPY of the order-data export adds to a process's RSS, per instance setting
 * (issue 20's 300 MB goal): each setting in a fresh child process on the same warehouse file.
 *
 *   npx tsx bench/export/copy-rss.ts --file <data dir>/warehouse.duckdb [--limits 1GB,256MB,128MB,96MB]
 *
 * It shows that the growth is DuckDB's buffer pool keeping the blocks the COPY read, bounded by
 * memory_limit alone (insertion order and threads change nothing): docs/order-export.md.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { orderQuerySchema } from '@shutu/contracts';
import { getDialect } from '@shutu/query';
import { copyStatement } from '../../apps/server/src/modules/orderexport/query.ts';

const { values } = parseArgs({ options: { file: { type: 'string' }, child: { type: 'string' }, limits: { type: 'string' } } });
const FORM = { utype: 3, CUsertype: 1, outputProvince: 1, outputSpid: 1, outputSpname: 1, outputOrdertime: 1, outputOrderchannelname: 1 };

function rss(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

if (values.child) {
  const settings = JSON.parse(values.child) as Record<string, string>;
  const instance = await DuckDBInstance.create(values.file!, { access_mode: 'READ_ONLY', ...settings });
  const connection = await instance.connect();
  const sql = copyStatement(getDialect('duckdb'), orderQuerySchema.parse(FORM), { kind: 'all' }).sql;
  const before = rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 20);
  const out = path.join(os.tmpdir(), `copy-rss-${process.pid}.csv`);
  const started = performance.now();
  await connection.run(`COPY (${sql}) TO '${out}' (HEADER, DELIMITER ',')`);
  const millis = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, rss());
  fs.rmSync(out, { force: true });
  console.log(
    JSON.stringify({ settings, before: Math.round(before), peak: Math.round(peak), growth: Math.round(peak - before), seconds: +(millis / 1000).toFixed(2) }),
  );
} else {
  const cases: Record<string, string>[] = (values.limits ?? '1GB,256MB,128MB,96MB').split(',').map((limit) => ({ memory_limit: limit.trim() }));
  for (const settings of cases) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--file', values.file!, '--child', JSON.stringify(settings)], {
      encoding: 'utf8',
    });
    process.stdout.write(run.stdout || run.stderr);
  }
}
