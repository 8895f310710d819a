/**
 * The engine part of an upload alone: `bulkLoadCsvFile` of the DuckDB driver on a CSV, both
 * ways it can run, in one process and alternating, so that both share the box's load:
 * - `instance`: the data source's instance reads the file itself (opened with csvOutput, as the
 *   server opens its DuckDB sources; INSERT … SELECT FROM read_csv);
 * - `private reader`: a locked-down instance, a private in-memory reader whose chunks are
 *   appended through the appender on this thread.
 * Per load: wall time, the process's CPU time (all threads: less sensitive to other load than the
 * wall time), the growth of the peak RSS (VmHWM reset before each load) and the longest event-loop
 * stall (what every other request of the server waits meanwhile).
 *
 *   npx tsx bench/upload/engine.ts --file f.csv [--rounds 2]     (f.csv: bench/upload/generate.ts)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DuckDBDriver, type LoadColumn } from '@shutu/connectors';
import { HEADER } from './generate.ts';

const { values } = parseArgs({ options: { file: { type: 'string' }, rounds: { type: 'string', default: '2' } } });
if (!values.file) throw new Error('--file f.csv (bench/upload/generate.ts writes one)');
const file = path.resolve(values.file);
// The generated file's confirmed types (the structure call proposes these).
const types = ['NUMBER', 'NUMBER', 'STRING', 'STRING', 'STRING', 'NUMBER', 'DATETIME', 'STRING'] as const;
const columns: LoadColumn[] = HEADER.map((_, i) => ({ name: `c${i + 1}`, type: types[i]! }));

const kib = (field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-engine-'));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
try {
  console.log(`load average before: ${load()} (${os.cpus().length} cores)`);
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const csvOutput of round % 2 === 1 ? [true, false] : [false, true]) {
      const driver = new DuckDBDriver({ type: 'duckdb', path: path.join(dir, `w-${round}-${csvOutput}.duckdb`), memoryLimit: '1GB', csvOutput });
      await driver.info();
      fs.writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
      const before = kib('VmHWM');
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const { rows } = await driver.bulkLoadCsvFile!('t', columns, { path: file, delimiter: ',', skipLines: 1, fields: HEADER.length });
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      stalls.disable();
      console.log(
        `round ${round} ${csvOutput ? 'instance      ' : 'private reader'}: ${rows} rows, wall ${Math.round(wall)} ms, CPU ${Math.round((used.user + used.system) / 1000)} ms, ` +
          `peak RSS growth ${((kib('VmHWM') - before) / 1024).toFixed(0)} MiB, longest event-loop stall ${Math.round(stalls.max / 1e6)} ms (p99 ${Math.round(stalls.percentile(99) / 1e6)} ms); load ${load()}`,
      );
      await driver.close();
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
