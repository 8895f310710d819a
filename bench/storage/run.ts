/**
 * bench/storage (issue 27, file storage): an export-sized CSV (default 1M rows, ≈ 70 MiB) written
 * line by line, with back-pressure, through the file storage's `writer()` — into the data
 * directory, and into a local S3 server (s3rver) as a multipart upload — then read back whole
 * through `get()`; beside the raw floor of the same run: the same lines into a plain
 * fs.createWriteStream and read back with fs.createReadStream. Reports seconds, MiB/s, the ratio
 * to raw and the growth of this process's resident memory (peak sampled every 50 ms), which
 * stays flat when nothing is buffered whole.
 *
 *   npx tsx bench/storage/run.ts [--rows 1000000] [--rounds 3]
 *
 * The three paths run interleaved, `rounds` times each, after one warm-up write; the best round of
 * each path is shown (the box is shared: the best is the least disturbed).
 *
 * The S3 server runs in this process (s3rver writes the objects to a temp directory), so the
 * S3 figures include its work too: an upper bound of the protocol's cost, not of a real bucket.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { startTestS3Server } from '../../apps/server/src/platform/files/s3-test-server.ts';
import { openFileStorage, type FileStorage } from '../../apps/server/src/platform/files/storage.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '3' } } });
const rows = Number(values.rows);
const rounds = Number(values.rounds);
const MiB = 1024 * 1024;

const line = (i: number) => `${i},2026-05-${String((i % 28) + 1).padStart(2, '0')} 10:00:00,广东省深圳市,${(i * 7.31) % 10000},已支付,${13800000000 + i}\r\n`;

async function writeLines(out: Writable): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < rows; i++) {
    const text = line(i);
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  return bytes;
}

async function drain(body: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) bytes += (chunk as Buffer).length;
  return bytes;
}

/** Runs `work` while sampling resident memory; its time and the peak growth. */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; rssMiB: number }> {
  global.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const started = performance.now();
  const value = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { value, seconds, rssMiB: (peak - base) / MiB };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
const s3 = await startTestS3Server();
const results: { name: string; write: number; read: number; bytes: number; writeRss: number; readRss: number }[] = [];

type Result = (typeof results)[number];
const best = new Map<string, Result>();
function keep(result: Result): void {
  const old = best.get(result.name);
  if (!old || result.write + result.read < old.write + old.read) best.set(result.name, result);
}

async function viaStorage(name: string, store: FileStorage): Promise<void> {
  const w = await measured(async () => {
    const writer = store.writer('exports/1/bench.csv', { contentType: 'text/csv' });
    await writeLines(writer.stream);
    return (await writer.done()).size;
  });
  const r = await measured(async () => drain((await store.get('exports/1/bench.csv'))!));
  if (r.value !== w.value) throw new Error(`${name}: read ${r.value} of ${w.value} bytes`);
  keep({ name, write: w.seconds, read: r.seconds, bytes: w.value, writeRss: w.rssMiB, readRss: r.rssMiB });
  await store.delete('exports/1/bench.csv');
  await store.close();
}

async function viaRaw(): Promise<void> {
  const rawFile = path.join(dir, 'raw.csv');
  const w = await measured(async () => {
    const out = fs.createWriteStream(rawFile);
    const bytes = await writeLines(out);
    out.end();
    await once(out, 'finish');
    return bytes;
  });
  const r = await measured(() => drain(fs.createReadStream(rawFile)));
  keep({ name: 'raw fs stream', write: w.seconds, read: r.seconds, bytes: w.value, writeRss: w.rssMiB, readRss: r.rssMiB });
  fs.rmSync(rawFile);
}

try {
  await viaRaw(); // warm-up, not kept
  best.clear();
  for (let round = 0; round < rounds; round++) {
    await viaRaw();
    await viaStorage('storage: local', openFileStorage({ dataDir: dir, files: { kind: 'local', dir: undefined } }));
    await viaStorage('storage: s3 (s3rver)', openFileStorage({ dataDir: dir, files: s3.config }));
  }
  results.push(...best.values());
} finally {
  await s3.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

const raw = results[0]!;
console.log(
  `rows ${rows}, ${(raw.bytes / MiB).toFixed(1)} MiB, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (2 cores)`,
);
console.log('| path | write s | write MiB/s | write ratio | read s | read MiB/s | read ratio | RSS growth write / read |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const x of results) {
  console.log(
    `| ${x.name} | ${x.write.toFixed(2)} | ${(x.bytes / MiB / x.write).toFixed(0)} | ${(x.write / raw.write).toFixed(2)} | ${x.read.toFixed(2)} | ${(x.bytes / MiB / x.read).toFixed(0)} | ${(x.read / raw.read).toFixed(2)} | ${x.writeRss.toFixed(0)} / ${x.readRss.toFixed(0)} MiB |`,
  );
}
