import fs from 'node:fs';

/** Shared timing helpers for the benchmarks in this folder. */
export interface Timing {
  label: string;
  millis: number;
}

/** Runs `fn` `runs` times after one warm-up and returns the median duration. */
export async function medianMillis(label: string, runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { label, millis: samples[Math.floor(samples.length / 2)] ?? 0 };
}

/** `engine / raw` as the benchmarks print it: 1.00 means no overhead. */
export const ratio = (through: Timing, raw: Timing): number => (raw.millis === 0 ? Infinity : through.millis / raw.millis);

/**
 * The raw engine's DuckDB instance of the warehouse file, opened with the server's own configuration
 * (memory_limit, threads). With DuckDB inside the server (SHUTU_DUCKDB_PROCESS=0) it is the driver's
 * process-wide instance — same buffer pool, same threads. By default the server's engine process
 * holds the file (one process per file, docs/architecture.md "The DuckDB engine process"): the raw
 * side then reads a copy of the file with an instance of its own, warmed by the same alternating runs.
 */
export async function serverWarehouseInstance(file: string, config: { duckdbMemoryLimit?: string; duckdbThreads?: number | undefined }) {
  const { DUCKDB_LOCKED_DOWN, openDuckDBInstance } = await import('@shutu/connectors');
  // csvOutput as the server's registry opens its DuckDB sources (connectionConfig).
  const open = (target: string) =>
    openDuckDBInstance(target, { memoryLimit: config.duckdbMemoryLimit, threads: config.duckdbThreads, csvOutput: true }, DUCKDB_LOCKED_DOWN);
  try {
    return await open(file);
  } catch (error) {
    if (!/lock/i.test(String(error))) throw error;
  }
  const copy = `${file}.raw-${process.pid}.duckdb`;
  fs.copyFileSync(file, copy);
  if (fs.existsSync(`${file}.wal`)) fs.copyFileSync(`${file}.wal`, `${copy}.wal`);
  process.once('exit', () => [copy, `${copy}.wal`].forEach((f) => fs.rmSync(f, { force: true })));
  return open(copy);
}
