// Type-checks every workspace (each has its own lib/jsx settings) and fails if any fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const workspaces = ['packages/contracts', 'packages/query', 'packages/connectors', 'apps/server', 'apps/web', 'e2e', 'bench'];
let failed = false;
for (const ws of workspaces) {
  if (!existsSync(`${ws}/tsconfig.json`)) continue;
  const r = spawnSync('npx', ['tsc', '--noEmit', '-p', ws], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
