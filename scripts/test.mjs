// `npm test`: typecheck, lint, boundaries, format, dependencies doc, unit + integration tests,
// web build, e2e, e2e against the cluster launcher (e2e-cluster) — in that order,
// stopping at the first failure. The last line printed is the summary CI reads:
//   N passed, N failed, N skipped
// summed over every vitest run. A failing step that is not a test run (typecheck, lint,
// build) or a vitest run that fails outside any test counts as one failure.
// `npm test -- --from=<step>` skips the steps before it (typecheck, lint, boundaries, format, dependencies, unit, build, e2e, e2e-cluster).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();

function run(name, command, args) {
  process.stdout.write(`\n=== ${name}: ${command} ${args.join(' ')}\n`);
  const t0 = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env, shell: process.platform === 'win32' });
  process.stdout.write(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  return result.status === 0;
}

/** A vitest run with the usual progress output plus a JSON report we add up. */
function vitest(name, extraArgs) {
  const report = path.join(reports, `${name}.json`);
  const ok = run(name, npx, ['vitest', 'run', ...extraArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  let counted = false;
  try {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += json.numPassedTests ?? 0;
    totals.failed += json.numFailedTests ?? 0;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    counted = (json.numFailedTests ?? 0) > 0;
  } catch {
    // no report: vitest failed before or outside the tests
  }
  if (!ok && !counted) totals.failed += 1;
  return ok;
}

function step(name, command, args) {
  const ok = run(name, command, args);
  if (!ok) totals.failed += 1;
  return ok;
}

/**
 * Why the cluster run (two processes, S3, the ClickHouse cluster: e2e/vitest.cluster.config.ts)
 * cannot run here, or null when it can: it needs the machine's PostgreSQL and clickhouse-server,
 * installed or installable from Debian's packages (as root with apt-get).
 */
function clusterMissing() {
  const clickhouse = ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server', '/usr/bin/clickhouse'].some((p) => fs.existsSync(p));
  if (!clickhouse && !(fs.existsSync('/usr/bin/apt-get') && process.getuid?.() === 0))
    return 'clickhouse-server is not installed and apt-get cannot install it here (not root)';
  const probe = "require('net').connect(5432, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))";
  if (spawnSync(process.execPath, ['-e', probe], { timeout: 5000 }).status !== 0) return 'no PostgreSQL on 127.0.0.1:5432';
  return null;
}

/** The e2e flows against `npm run cluster`; skipped with the reason when the servers are missing, except under CI=true. */
function e2eCluster() {
  const missing = process.env.CI === 'true' ? null : clusterMissing();
  if (missing) {
    process.stdout.write(`\n=== e2e-cluster: skipped — ${missing}\n`);
    totals.skipped += 1;
    return true;
  }
  return vitest('e2e-cluster', ['--config', 'e2e/vitest.cluster.config.ts']);
}

const steps = [
  ['typecheck', () => step('typecheck', process.execPath, ['scripts/typecheck.mjs'])],
  ['lint', () => step('lint', npx, ['eslint', '.'])],
  ['boundaries', () => step('boundaries', process.execPath, ['scripts/check-boundaries.mjs'])],
  ['format', () => step('format', npx, ['prettier', '--check', '--log-level', 'warn', '.'])],
  ['dependencies', () => step('dependencies doc', process.execPath, ['scripts/dependencies-doc.mjs', '--check'])],
  ['unit', () => vitest('unit+integration', [])],
  ['build', () => step('build web', npm, ['run', 'build', '-w', '@shutu/web'])],
  ['e2e', () => vitest('e2e', ['--config', 'e2e/vitest.config.ts'])],
  ['e2e-cluster', () => e2eCluster()],
];

const from = process.argv.find((arg) => arg.startsWith('--from='))?.slice('--from='.length);
const first = from ? steps.findIndex(([name]) => name === from) : 0;
if (first < 0) {
  process.stderr.write(`unknown step "${from}": use ${steps.map(([name]) => name).join(', ')}\n`);
  process.exit(2);
}

let failedStep = false;
for (const [, next] of steps.slice(first)) {
  if (!next()) {
    failedStep = true;
    break;
  }
}
fs.rmSync(reports, { recursive: true, force: true });
process.stdout.write(`\nnpm test ${failedStep ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.stdout.write(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failedStep ? 1 : 0);
