/**
 * Ingestion benchmark (issue 22): tracker batches POSTed over HTTP to the real server's
 * /track/batch (validation, write key, buffered bulk writer into the store) vs. a bare Fastify
 * route on the same box that parses the same text/plain batches and discards them, measured in
 * the same run with autocannon. Prints events/s of both and the ratio, then stops the server
 * cleanly and checks that every acknowledged event was stored.
 *
 *   npx tsx bench/track/run.ts [--seconds 10] [--connections 10] [--batch 100] [--database-url postgres://…]
 *
 * Without --database-url the store is the embedded PGlite, which runs inside the server's own
 * process (and thread): its inserts compete with the HTTP work for the same core.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { startServer } from '../../apps/server/src/server.ts';
import { generateBatches } from './generate.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    batch: { type: 'string', default: '100' },
    /** Load generator threads (autocannon workers): 0 runs it on the server's own thread. */
    workers: { type: 'string', default: '0' },
    /** A PostgreSQL database for the metadata store: create it first (createdb), the run migrates it and leaves it. */
    'database-url': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
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
async function load(url: string): Promise<{ ok: number; eventsPerSecond: number; errors: number }> {
  let next = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    ...(workers > 0
      ? { workers, requests: [{ setupRequest: path.join(import.meta.dirname, 'setup-request.cjs') }] }
      : { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[next++ % bodies.length] }) }] }),
  } as autocannon.Options);
  const ok = result['2xx'];
  return { ok, eventsPerSecond: (ok * batchSize) / seconds, errors: result.non2xx + result.errors };
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
  const rawResult = await load(raw.url);
  const product = await load(`${server.url}/track/batch`);
  await raw.close();
  const store = server.store;
  // A clean stop writes what the writer still buffers; count before the store closes.
  await server.app.close();
  const row = await store.db
    .selectFrom('trackEvent')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  await server.close();
  const stored = Number(row.n);
  console.log(`bare Fastify (parse + discard): ${Math.round(rawResult.eventsPerSecond).toLocaleString('en')} events/s (${rawResult.errors} errors)`);
  console.log(`ShuTu /track/batch:             ${Math.round(product.eventsPerSecond).toLocaleString('en')} events/s (${product.errors} errors)`);
  console.log(
    `ratio ${(product.eventsPerSecond / rawResult.eventsPerSecond).toFixed(2)}; acknowledged ${(product.ok * batchSize).toLocaleString('en')}, stored ${stored.toLocaleString('en')}`,
  );
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(bodiesFile, { force: true });
}
