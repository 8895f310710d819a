/**
 * Times the demo-warehouse generator (packages/connectors/src/demo).
 *
 *   npx tsx bench/warehouse/generate.ts                      # default scale (200k orders), in memory and into a file
 *   npx tsx bench/warehouse/generate.ts --scale 10000000     # 10M orders
 *   npx tsx bench/warehouse/generate.ts --scale 10000000 --verify   # and check a 1-thread rebuild is identical
 *
 * Prints per-step milliseconds, total wall time, row counts and the file size, with the machine's
 * load average (the numbers are only comparable on a quiet machine). Files go to a temp directory
 * that is removed afterwards.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_SCALE, ensureDemoWarehouse, generateDemoWarehouse, tableChecksums, type GenerateResult } from '../../packages/connectors/src/demo/index.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: String(DEFAULT_SCALE) },
    seed: { type: 'string' },
    verify: { type: 'boolean', default: false },
    'memory-only': { type: 'boolean', default: false },
  },
});
const scale = Number(values.scale);
const seed = values.seed === undefined ? undefined : Number(values.seed);

function report(label: string, r: GenerateResult): void {
  const steps = r.steps.map((s) => `${s.step} ${s.millis}`).join(', ');
  const rows = Object.values(r.rowCounts).reduce((a, b) => a + b, 0);
  console.log(`${label}: ${r.millis} ms for ${rows.toLocaleString('en')} rows (orders ${r.rowCounts.orders?.toLocaleString('en')})`);
  console.log(`  steps (ms): ${steps}`);
}

async function inMemory(threads?: string): Promise<{ result: GenerateResult; sums: Record<string, string> | null }> {
  const instance = await DuckDBInstance.create(':memory:', threads ? { threads } : {});
  const connection = await instance.connect();
  try {
    const result = await generateDemoWarehouse(connection, { scale, seed });
    return { result, sums: values.verify ? await tableChecksums(connection) : null };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

console.log(
  `demo warehouse bench: scale ${scale.toLocaleString('en')}, ${cpus().length} CPUs, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, node ${process.version}`,
);

const mem = await inMemory();
report('in memory', mem.result);

if (!values['memory-only']) {
  const dir = await mkdtemp(join(tmpdir(), 'shutu-bench-warehouse-'));
  try {
    const path = join(dir, 'warehouse.duckdb');
    const started = performance.now();
    const first = await ensureDemoWarehouse(path, { scale, seed });
    const size = (await stat(path)).size;
    console.log(
      `file, first start (ensureDemoWarehouse: open, generate, close): ${Math.round(performance.now() - started)} ms, ${(size / 1024 / 1024).toFixed(1)} MiB`,
    );
    console.log(`  generation inside it: ${first.meta.durationMs} ms before commit`);
    const again = await ensureDemoWarehouse(path, { scale, seed });
    console.log(`file, second start: ${again.action} in ${again.millis} ms`);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    try {
      report('file, regenerate in place (steps)', await generateDemoWarehouse(connection, { scale, seed: (seed ?? 0) + 1 }));
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (values.verify) {
  const single = await inMemory('1');
  report('in memory, 1 thread', single.result);
  const same = JSON.stringify(single.sums) === JSON.stringify(mem.sums);
  console.log(`checksums with default threads vs 1 thread: ${same ? 'identical' : 'DIFFERENT'}`);
  if (!same) process.exitCode = 1;
}
