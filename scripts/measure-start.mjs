// Measures `npm start` (dependencies installed, web built) to a served login page:
// from spawning `node scripts/start.mjs` with a fresh DATA_DIR until GET / returns the
// page's HTML, its script bundle loads and /api/health answers ok. Each run uses a new
// data directory (migrations and seeding included) and a free port.
//   node scripts/measure-start.mjs [runs=3]      (MEASURE_DEBUG=1 also prints stop times)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function servedLoginPage(url) {
  try {
    const health = await fetch(`${url}/api/health`);
    if (!health.ok || (await health.json()).data?.status !== 'ok') return false;
    const page = await fetch(`${url}/`);
    const html = await page.text();
    if (!page.ok || !page.headers.get('content-type')?.startsWith('text/html') || !html.includes('<div id="root">')) return false;
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    if (script === undefined) return false;
    const bundle = await fetch(new URL(script, url));
    // Read it all: an unread body keeps the connection busy and the server's close waiting.
    return bundle.ok && (await bundle.arrayBuffer()).byteLength > 0;
  } catch {
    return false; // not listening yet
  }
}

async function measureOnce() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-measure-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    for (;;) {
      if (await servedLoginPage(url)) {
        const seconds = (performance.now() - t0) / 1000;
        // A run that had to install or build is not the case we measure; say so.
        const note = /^> npm (ci|install|run build)/m.test(output) ? ' (installed or built first)' : '';
        return { seconds, note };
      }
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
      if (performance.now() - t0 > 120_000) throw new Error(`no login page after 120 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    const stopAt = performance.now();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (process.env.MEASURE_DEBUG) process.stdout.write(`stopped in ${((performance.now() - stopAt) / 1000).toFixed(2)} s\n`);
  }
}

// One unmeasured run first: it installs or builds if anything is stale, so the measured
// runs start from "dependencies installed, web built", as the README states.
const warmUp = await measureOnce();
process.stdout.write(`warm-up: ${warmUp.seconds.toFixed(2)} s${warmUp.note} (not counted)\n`);
const times = [];
for (let i = 1; i <= runs; i++) {
  const { seconds, note } = await measureOnce();
  times.push(seconds);
  process.stdout.write(`run ${i}: ${seconds.toFixed(2)} s${note}\n`);
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
process.stdout.write(`median of ${runs}: ${median.toFixed(2)} s (min ${sorted[0].toFixed(2)}, max ${sorted.at(-1).toFixed(2)})\n`);
