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
 * The process-wide DuckDB instance of the warehouse file, opened with the server's own configuration
 * (memory_limit, threads): one process may hold a file once, with one configuration, so the raw-engine
 * side of a bench shares the driver's instance — same buffer pool, same threads.
 */
export async function serverWarehouseInstance(file: string, config: { duckdbMemoryLimit?: string; duckdbThreads?: number | undefined }) {
  const { DUCKDB_LOCKED_DOWN, openDuckDBInstance } = await import('@shutu/connectors');
  // csvOutput as the server's registry opens its DuckDB sources (connectionConfig).
  return openDuckDBInstance(file, { memoryLimit: config.duckdbMemoryLimit, threads: config.duckdbThreads, csvOutput: true }, DUCKDB_LOCKED_DOWN);
}
