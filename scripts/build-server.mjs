// The server as one bundle (apps/server/dist/main.js), what `npm start`, the e2e harness, the
// cluster and the benches run: `node apps/server/dist/main.js serve`. Run under tsx instead, the
// server kept a loader thread with every transpiled source and source map in its own heap: about
// 90 MiB of a 280 MiB idle server (issue 20's 300 MB goal; docs/deploy.md "The server bundle").
//
// The workspace packages (@shutu/*) are bundled from their TypeScript; every other package stays
// an import of node_modules (native bindings, wasm, files read beside their code). Files the
// server reads beside its own code are copied next to the bundle. Builds are idempotent and safe
// side by side: every file is written to a temporary name and renamed, main.js last, and two
// builds of the same sources write the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'apps', 'server', 'dist');

/** The bundle's entry: `node <SERVER_ENTRY> serve`. */
export const SERVER_ENTRY = path.join(outdir, 'main.js');

/** What the bundle is made of: a newer file here means a stale bundle. */
const SOURCES = ['apps/server/src', 'packages/contracts/src', 'packages/query/src', 'packages/connectors/src', 'scripts/build-server.mjs', 'package-lock.json'];

/** Files read at run time beside the code that reads them (`new URL(…, import.meta.url)`, a directory listing). */
const BESIDE = [
  ['apps/server/src/modules/dataapi/sandbox-worker.mjs', 'sandbox-worker.mjs'],
  ['apps/server/src/modules/workflow/processes', 'processes'],
];

/** Newest modification time of a file or of any file below a directory (0 if absent; node_modules and build output skipped). */
export function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file shows as a newer directory
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    latest = Math.max(latest, newest(path.join(target, entry.name)));
  }
  return latest;
}

/** Whether the bundle is missing or older than a source. */
export function serverBundleStale() {
  let built;
  try {
    built = fs.statSync(SERVER_ENTRY).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((source) => newest(path.join(root, source)) > built);
}

function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

function copyBeside(from, to) {
  const stat = fs.statSync(from);
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(from)) copyBeside(path.join(from, entry), path.join(to, entry));
    return;
  }
  writeAtomically(to, fs.readFileSync(from));
}

/** Builds the bundle (when stale, unless `force`); returns its entry. */
export async function buildServer({ force = false } = {}) {
  if (!force && !serverBundleStale()) return SERVER_ENTRY;
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'apps/server/src/main.ts', 'duckdb-host': 'packages/connectors/src/duckdb-process/duckdb-host.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    outdir,
    write: false,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-stay-imports',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@shutu/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  for (const [from, to] of BESIDE) copyBeside(path.join(root, from), path.join(outdir, to));
  const entry = result.outputFiles.find((f) => f.path === SERVER_ENTRY);
  for (const file of result.outputFiles) if (file !== entry) writeAtomically(file.path, file.contents);
  writeAtomically(SERVER_ENTRY, entry.contents);
  return SERVER_ENTRY;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  await buildServer({ force: process.argv.includes('--force') });
  console.log(`server bundle: ${path.relative(root, SERVER_ENTRY)} (${Date.now() - started} ms)`);
}
