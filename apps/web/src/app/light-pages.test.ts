import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The share link, the board preview, the phone viewer and the app shell build no zod schema (issue 26, docs/web-performance.md
 * "Schema-free contracts"): zod builds every schema of a contracts file when the file is loaded,
 * ≈ 75 ms on a phone before the board could draw. So the static imports of those pages (and of
 * the chart parts they load) take values from the contracts' zod-free files only
 * (`@shutu/contracts/<file>`), never from the barrel, which loads every schema; types are free.
 */
const SRC = path.resolve(import.meta.dirname, '..');
const CONTRACTS = path.resolve(SRC, '../../../packages/contracts/src');
const LIGHT_PAGES = [
  'main.tsx',
  // The antd shell and the route table with its page list: every page but /login loads them.
  'app/shell.tsx',
  'app/routes.tsx',
  'features/share-open/ShareOpenPage.tsx',
  'features/mobile/MobileAppPage.tsx',
  'features/mobile/MobileHomePage.tsx',
  // The board preview (bench/board's page): its share and subscription dialogs load when opened.
  'features/board/preview/BoardPreviewPage.tsx',
  'shared/charts/EChart.tsx',
  'shared/charts/TableViews.tsx',
  'shared/charts/FilterSelect.tsx',
  'shared/charts/FilterDate.tsx',
];

/** `import …`/`export … from` statements that load values (not `import type`), with their specifier. */
function valueImports(source: string): { spec: string; names: string }[] {
  const found: { spec: string; names: string }[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gms)) {
    if (!m[1]) found.push({ spec: m[3]!, names: m[2]! });
  }
  for (const m of source.matchAll(/^import\s+'([^']+)'/gm)) found.push({ spec: m[1]!, names: '' });
  return found;
}

const FEATURE_INDEX = /[\\/]features[\\/][^\\/]+[\\/]index\.ts$/;

/** The value names of an import clause (`{ a, b as c, type T }` → a, b). */
function importedNames(clause: string): string[] {
  return (/\{([^}]*)\}/.exec(clause)?.[1] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n && !n.startsWith('type '))
    .map((n) => n.split(/\s+as\s+/)[0]!);
}

function resolveFile(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const file of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (existsSync(file) && statSync(file).isFile()) return file;
  return null;
}

/** Whether a contracts file, or a contracts file it loads values from, imports zod. */
function buildsSchemas(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  for (const { spec } of valueImports(readFileSync(file, 'utf8'))) {
    if (spec === 'zod' || spec.startsWith('zod/')) return true;
    const next = spec.startsWith('.') ? resolveFile(file, spec) : null;
    if (next && buildsSchemas(next, seen)) return true;
  }
  return false;
}

/** Every problem in the static import graph of the light pages: "file: what it imports". */
function schemaImports(): { files: number; problems: string[] } {
  const seen = new Set<string>();
  const problems: string[] = [];
  // A feature's index.ts only re-exports: the build keeps the names imported (vite.config.ts DECLARATIONS_ONLY).
  const visitIndex = (index: string, wanted: string[]) => {
    for (const m of readFileSync(index, 'utf8').matchAll(/^export\s+\{([^}]*)\}\s+from\s+'([^']+)'/gm)) {
      const exported = m[1]!.split(',').map((n) =>
        n
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
      );
      const next = resolveFile(index, m[2]!);
      if (next && exported.some((n) => wanted.includes(n))) visit(next);
    }
  };
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { spec, names } of valueImports(readFileSync(file, 'utf8'))) {
      const where = path.relative(SRC, file);
      if (spec.startsWith('.')) {
        const next = resolveFile(file, spec);
        if (next && FEATURE_INDEX.test(next)) visitIndex(next, importedNames(names));
        else if (next) visit(next);
      } else if (spec === '@shutu/contracts') {
        // `import { type A, type B }` loads nothing either.
        const values = names
          .replace(/[{}]/g, '')
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '));
        if (values.length > 0) problems.push(`${where}: ${values.join(', ')} from the barrel @shutu/contracts`);
      } else if (spec.startsWith('@shutu/contracts/')) {
        const target = path.join(CONTRACTS, `${spec.slice('@shutu/contracts/'.length)}.ts`);
        if (buildsSchemas(target)) problems.push(`${where}: ${spec} builds zod schemas`);
      }
    }
  };
  for (const page of LIGHT_PAGES) visit(path.join(SRC, page));
  return { files: seen.size, problems };
}

describe('the light pages (share link, phone viewer)', () => {
  it('load no contracts file that builds zod schemas', () => {
    const { files, problems } = schemaImports();
    // The walk reaches the board renderer, not only the page files.
    expect(files).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });

  it('the check sees a schema file behind a contracts import', () => {
    expect(buildsSchemas(path.join(CONTRACTS, 'board.ts'))).toBe(true);
    expect(buildsSchemas(path.join(CONTRACTS, 'board-constants.ts'))).toBe(false);
    expect(buildsSchemas(path.join(CONTRACTS, 'time-zone.ts'))).toBe(false);
  });
});
