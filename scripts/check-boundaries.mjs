// The boundary check `npm test` runs: dependency-cruiser with .dependency-cruiser.cjs (file
// cycles, packages importing apps, web importing server, a module reaching past another module's
// index.ts, warehouse reads outside modules/read, undeclared packages), then a cycle check between
// folders, which dependency-cruiser does not do. Exits 1 on any violation.
//   node scripts/check-boundaries.mjs [--root DIR] [paths…]
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');
export const DEFAULT_PATHS = ['apps', 'packages', 'e2e', 'bench', 'scripts'];

/**
 * The folder a file belongs to for the folder-cycle check: a server module or platform part, a
 * web feature or top-level web folder, a package. Other files stand alone. Test files and
 * type-only imports do not count: a test may reach across, and a type is no load-time edge.
 */
export function folderOf(file) {
  const match = /^(apps\/server\/src\/(?:modules|platform)\/[^/]+|apps\/web\/src\/features\/[^/]+|apps\/web\/src\/[^/]+(?=\/)|packages\/[^/]+)\//.exec(file);
  return match ? match[1] : file;
}

const isTest = (file) => /\.test\.[cm]?[tj]sx?$/.test(file) || /(^|\/)(test|testing)\//.test(file);

/** Strongly connected groups of folders (Tarjan), each with one example import per edge. */
export function folderCycles(modules) {
  const edges = new Map();
  for (const module of modules) {
    if (isTest(module.source)) continue;
    const from = folderOf(module.source);
    for (const dep of module.dependencies) {
      if (dep.dependencyTypes.includes('type-only') || dep.resolved.startsWith('node_modules/') || isTest(dep.resolved)) continue;
      const to = folderOf(dep.resolved);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dep.resolved}`);
    }
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return groups.map((group) => ({
    folders: group,
    imports: group.flatMap((a) => group.filter((b) => edges.get(a)?.has(b)).map((b) => edges.get(a).get(b))),
  }));
}

/** Every violation under `root` (a repository laid out like this one): rule breaks and folder cycles, as lines. */
export function checkBoundaries({ root = repo, paths = DEFAULT_PATHS } = {}) {
  const config = path.join(repo, '.dependency-cruiser.cjs');
  const bin = path.join(repo, 'node_modules', '.bin', 'depcruise');
  const result = spawnSync(bin, ['--config', config, '--output-type', 'json', '--no-progress', ...paths], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!result.stdout) throw new Error(`depcruise failed: ${result.stderr}`);
  const report = JSON.parse(result.stdout);
  const problems = report.summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name ?? c).join(' → ')})` : ''}`,
  );
  for (const cycle of folderCycles(report.modules)) {
    problems.push(`folder-cycle: ${cycle.folders.join(' ⇄ ')}\n    ${cycle.imports.join('\n    ')}`);
  }
  return { problems, modules: report.modules.length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? path.resolve(args[rootAt + 1]) : repo;
  const paths = args.filter((_, i) => i !== rootAt && i !== rootAt + 1);
  const { problems, modules } = checkBoundaries({ root, paths: paths.length > 0 ? paths : DEFAULT_PATHS });
  for (const line of problems) process.stdout.write(`✘ ${line}\n`);
  process.stdout.write(problems.length === 0 ? `boundaries: ok (${modules} modules)\n` : `boundaries: ${problems.length} violation(s)\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
