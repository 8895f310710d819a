// `npm start`: install dependencies if needed, build the web app if stale, then serve.
// Plain Node only: this runs on a fresh clone before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer, newest, serverBundleStale } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const at = (...parts) => path.join(root, ...parts);

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function run(command, args) {
  process.stdout.write(`\n> ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    process.stderr.write(`\n"${command} ${args.join(' ')}" failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

// 1. Dependencies: missing, or the lock changed since the last install.
const lock = mtime(at('package-lock.json'));
const installed = mtime(at('node_modules', '.package-lock.json'));
if (!fs.existsSync(at('node_modules')) || installed === undefined) {
  run(npm, [lock === undefined ? 'install' : 'ci']);
} else if (lock !== undefined && lock > installed) {
  run(npm, ['ci']);
}

// 2. Web app: built when dist is missing or older than any of its sources.
const built = mtime(at('apps', 'web', 'dist', 'index.html'));
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contracts/src'];
if (built === undefined || sources.some((source) => newest(at(source)) > built)) {
  run(npm, ['run', 'build', '-w', '@shutu/web']);
}

// 3. The server's bundle (scripts/build-server.mjs), built when missing or older than its sources.
if (serverBundleStale()) process.stdout.write('\n> node scripts/build-server.mjs\n');
const entry = await buildServer();

// 4. Serve: migrates, seeds and prints the URL and first admin credentials.
// The server gets its own process group, so a Ctrl-C in the terminal reaches it once,
// through us, instead of twice (directly and forwarded) which would cut its shutdown short.
const server = spawn(process.execPath, [entry, 'serve'], {
  cwd: root,
  stdio: 'inherit',
  detached: process.platform !== 'win32',
});

let lastForward = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // npm forwards the terminal's signal too: one delivery per second is the same request.
    if (Date.now() - lastForward < 1000) return;
    lastForward = Date.now();
    if (server.exitCode === null) server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}
process.on('exit', () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
});

server.on('error', (error) => {
  process.stderr.write(`could not start the server: ${error.message}\n`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  const signals = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1, SIGKILL: 9 };
  process.exit(code ?? 128 + (signals[signal] ?? 1));
});
