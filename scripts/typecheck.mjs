// Type-checks every workspace (each has its own lib/jsx settings) and fails if any fails.
// Two tsc processes at a time (one per core on the 2-core CI box); output is printed per
// workspace when it finishes, so parallel runs do not interleave.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const workspaces = ['packages/contracts', 'packages/query', 'packages/connectors', 'apps/server', 'apps/web', 'e2e', 'bench'].filter((ws) =>
  existsSync(path.join(root, ws, 'tsconfig.json')),
);

function check(ws) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [tsc, '--noEmit', '--pretty', '-p', ws], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`tsc ${ws}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...workspaces];
let failed = false;
const lanes = Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
  for (let ws = queue.shift(); ws; ws = queue.shift()) if (!(await check(ws))) failed = true;
});
await Promise.all(lanes);
process.exit(failed ? 1 : 0);
