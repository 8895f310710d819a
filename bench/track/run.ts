/**
 * Ingestion benchmark (issue 22): tracker batches POSTed over HTTP to the real server's
 * /track/batch (validation, write key, buffered bulk writer appending to the built-in DuckDB
 * warehouse) vs. a bare Fastify route on the same box that parses the same text/plain batches
 * and discards them, measured in the same run with autocannon. Prints events/s of both and the
 * ratio, then stops the server cleanly and checks that every acknowledged event was stored in the
 * warehouse; last, the raw engine: the same rows appended by the DuckDB driver alone.
 *
 *   npx tsx bench/track/run.ts [--seconds 10] [--connections 10] [--batch 100] [--workers 1] [--database-url postgres://…]
 *
 * Without --database-url the metadata store is the embedded PGlite; either way the clicks go to
 * the warehouse (this process owns it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pino from 'pino';
import { collect, openDriver, type LoadRow } from '@shutu/connectors';
import type { AppContext } from '../../apps/server/src/context.ts';
import { connectionConfig } from '../../apps/server/src/modules/datasource/registry.ts';
import { TRACK_COLUMNS, TRACK_TABLE } from '../../apps/server/src/modules/heatmap/warehouse-clicks.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { startServer } from '../../apps/server/src/server.ts';
import { generateBatches } from './generate.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    /** Rounds of (bare, ShuTu), interleaved: on a shared box the load moves, each pair sees about the same. */
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    batch: { type: 'string', default: '100' },
    /** Load generator threads (autocannon workers): 0 runs it on the server's own thread. */
    workers: { type: 'string', default: '0' },
    /** A PostgreSQL database for the metadata store: create it first (createdb), the run migrates it and leaves it. */
    'database-url': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const batchSize = Number(values.batch);
const bodies = generateBatches(64, batchSize);
const workers = Number(values.workers);
// Workers cannot take a function: they load setup-request.cjs, which reads the batches from this file.
const bodiesFile = path.join(os.tmpdir(), `shutu-bench-track-${process.pid}.json`);
if (workers > 0) {
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  process.env.TRACK_BENCH_BODIES = bodiesFile;
}

/** Runs autocannon against url with the batches in turn; the 2xx responses and events/s. */
async function load(url: string, duration = seconds): Promise<{ ok: number; eventsPerSecond: number; errors: number }> {
  let next = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    ...(workers > 0
      ? { workers, requests: [{ setupRequest: path.join(import.meta.dirname, 'setup-request.cjs') }] }
      : { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[next++ % bodies.length] }) }] }),
  } as autocannon.Options);
  const ok = result['2xx'];
  return { ok, eventsPerSecond: (ok * batchSize) / duration, errors: result.non2xx + result.errors };
}

async function bare(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // The same work a receiver cannot skip: parse the batch. Then discard it.
  app.post('/track/batch', async (request) => ({ accepted: (JSON.parse(request.body as string) as { events: unknown[] }).events.length }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}/track/batch`, close: () => app.close() };
}

/** The driver's append alone (in-memory DuckDB, 5 000-row calls like the writer's): the floor under the sink. */
async function rawAppend(batches: string[]): Promise<number> {
  const rows: LoadRow[] = [];
  const now = new Date();
  for (const body of batches) {
    for (const e of (JSON.parse(body) as { events: Record<string, string | number>[] }).events) {
      rows.push([1, e.event!, now, e.distinctId!, null, e.title!, e.url!, 'PC', 'production', e.x!, e.y!, e.pageWidth!]);
    }
  }
  const driver = openDriver({ type: 'duckdb' });
  try {
    const calls = Math.max(1, Math.ceil(100_000 / 5000));
    const started = performance.now();
    for (let i = 0; i < calls; i++) await driver.appendRows!(TRACK_TABLE, TRACK_COLUMNS, rows.slice(0, 5000));
    return (calls * Math.min(5000, rows.length)) / ((performance.now() - started) / 1000);
  } finally {
    await driver.close();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-track-'));
try {
  const config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTU_DEMO_SCALE: '1000', LOG_LEVEL: 'warn' }),
    databaseUrl: values['database-url'],
    webDist: undefined,
  };
  const server = await startServer(config, pino({ level: 'warn' }), { jobs: false });
  // The demo website's key at the highest rate limit: the bench measures ingestion, not the limiter's refusals.
  await server.store.db.updateTable('trackSite').set({ rateLimit: 100_000 }).where('writeKey', '=', 'demo-site').execute();
  const raw = await bare();
  console.log(
    `store: ${config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}; batches of ${batchSize} events, ${connections} connections, ${seconds} s each, client ${workers > 0 ? `in ${workers} worker thread(s)` : "on the servers' thread"} on ${os.cpus().length} cores`,
  );
  // A short warm-up of each (JIT, the appender's first chunks, connections), not counted in the figures; its events are stored all the same.
  await load(raw.url, 2);
  let acknowledged = (await load(`${server.url}/track/batch`, 2)).ok * batchSize;
  const pairs: { bare: number; product: number; errors: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const bareRound = await load(raw.url);
    const productRound = await load(`${server.url}/track/batch`);
    acknowledged += productRound.ok * batchSize;
    pairs.push({ bare: bareRound.eventsPerSecond, product: productRound.eventsPerSecond, errors: bareRound.errors + productRound.errors });
    console.log(
      `round ${round + 1}: bare Fastify (parse + discard) ${Math.round(bareRound.eventsPerSecond).toLocaleString('en')} events/s, ShuTu /track/batch ${Math.round(productRound.eventsPerSecond).toLocaleString('en')} events/s, ratio ${(productRound.eventsPerSecond / bareRound.eventsPerSecond).toFixed(2)} (${bareRound.errors + productRound.errors} errors; load ${os.loadavg()[0]!.toFixed(1)})`,
    );
  }
  await raw.close();
  const store = server.store;
  // A clean stop writes what the writer still buffers; count before the store closes.
  await server.app.close();
  const waiting = await store.db
    .selectFrom('trackEvent')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  await server.close();
  // The server's own settings for the file (its engine limits): DuckDB refuses a second configuration of an open file.
  const warehouse = openDriver(
    connectionConfig({ config } as AppContext, {
      type: 'duckdb',
      path: path.join(dataDir, 'warehouse.duckdb'),
      host: null,
      port: null,
      database: null,
      username: null,
      passwordEncrypted: null,
    }),
  );
  const [row] = (await collect(warehouse.query(`SELECT count(*) AS n FROM ${TRACK_TABLE}`))).rows;
  await warehouse.close();
  const stored = Number(row!.n);
  const engine = await rawAppend(bodies);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `median of ${rounds}: bare ${Math.round(median(pairs.map((p) => p.bare))).toLocaleString('en')}, ShuTu ${Math.round(median(pairs.map((p) => p.product))).toLocaleString('en')} events/s`,
  );
  console.log(
    `acknowledged ${acknowledged.toLocaleString('en')} (warm-up included), stored in the warehouse ${stored.toLocaleString('en')} (${Number(waiting.n)} left in the store)`,
  );
  console.log(`raw engine: DuckDB appendRows of 5 000-row calls alone: ${Math.round(engine).toLocaleString('en')} rows/s`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(bodiesFile, { force: true });
}
