import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vitest/config';
import type { ChunkingContext } from 'rolldown';
import react from '@vitejs/plugin-react';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br (quality 11) and a .gz (level 9) beside every emitted text file of 1 kB or more,
 * once at build time: the server sends them as they are (@fastify/static preCompressed) instead
 * of compressing on every request on a 2-core box (issue 26, docs/web-performance.md).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'shutu-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => /\.(?:js|css|html|svg|json)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const body = await fs.readFile(file);
          if (body.length < 1024) return;
          const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length };
          await fs.writeFile(`${file}.br`, await brotli(body, { params }));
          await fs.writeFile(`${file}.gz`, await gzip(body, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * Routes whose page chunks index.html's first script preloads (issue 24, docs/web-performance.md):
 * `path` a RegExp source matched against location.pathname, `modules` the lazy modules (every
 * matching row is preloaded).
 */
const EARLY_ROUTES = [
  // Every page but /login needs the antd part of the shell (app/shell.tsx) and the route table
  // (app/routes.tsx, added to the router on the first navigation away from /login).
  { path: '^/(?!login(/|$))', modules: ['src/app/shell.tsx', 'src/app/routes.tsx'] },
  // ECharts loads on demand (shared/charts/lazy-parts.tsx); nearly every board the viewers open draws with it.
  // On the phone the table and filter parts too (one chart-parts chunk): asked for only after the
  // board's first render, they arrived after the chart data on fast 4G (bench/mobile --waterfall).
  { path: '^/m/app/\\d+/?$', modules: ['src/features/mobile/MobileAppPage.tsx', 'src/shared/charts/EChart.tsx', 'src/shared/charts/TableViews.tsx'] },
  { path: '^/m/?$', modules: ['src/features/mobile/MobileHomePage.tsx'] },
  // The board preview (issue 26): its page and ECharts while the app starts, not after the route table has run.
  { path: '^/newbi/preview/\\d+/?$', modules: ['src/features/board/preview/BoardPreviewPage.tsx', 'src/shared/charts/EChart.tsx'] },
  { path: '^/share/', modules: ['src/features/share-open/ShareOpenPage.tsx', 'src/shared/charts/EChart.tsx'] },
];
const EARLY_SOURCE = 'src/boot/early.js';

/**
 * The page's first script (src/boot/early.js) as a hashed asset (cached for a year) in place of
 * index.html's `<script src="/src/boot/early.js">`, and beside it the table of each early route's
 * chunks (the lazy page's chunk, everything it imports statically, their CSS) that it preloads
 * while the app's own script is still on its way: on 4G each chunk asked for only after the app
 * has run costs a round trip of 165 ms or more.
 */
function earlyBoot(): Plugin {
  let root = '';
  let fileName = '';
  let source = '';
  return {
    name: 'shutu-early-boot',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      source = readFileSync(path.join(root, EARLY_SOURCE), 'utf8');
      fileName = `assets/early-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const routes = EARLY_ROUTES.map((route) => {
          const files = new Set<string>();
          const visit = (file: string) => {
            const chunk = byFile.get(file);
            if (!chunk || chunk.isEntry || files.has(file)) return;
            files.add(file);
            for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
            chunk.imports.forEach(visit);
          };
          for (const module of route.modules) {
            const page = chunks.find((c) => c.moduleIds.includes(path.join(root, module)));
            if (!page) throw new Error(`earlyBoot: no chunk for ${module}`);
            visit(page.fileName);
          }
          return { path: route.path, files: [...files] };
        });
        const tag = `<script defer src="/${EARLY_SOURCE}"></script>`;
        if (!html.includes(tag)) throw new Error(`earlyBoot: index.html has no ${tag}`);
        // JSON in a data block is not run, so the Content-Security-Policy (script-src 'self') allows it.
        const table = JSON.stringify(routes).replace(/</g, '\\u003c');
        return html.replace(tag, `<script type="application/json" id="shutu-routes">${table}</script>\n    <script defer src="/${fileName}"></script>`);
      },
    },
  };
}

/** The pages whose static imports go into the viewer's chunks (issue 24, docs/web-performance.md). */
const PHONE_PAGES = ['src/features/mobile/MobileAppPage.tsx', 'src/features/mobile/MobileHomePage.tsx'];
const SHARE_PAGES = ['src/features/share-open/ShareOpenPage.tsx'];
/**
 * What every page but /login loads: the antd part of the app shell and the route table with the
 * page list (router.tsx adds it on the first navigation away from /login).
 */
const SHELL = ['src/app/shell.tsx', 'src/app/routes.tsx'];
/** Declaration-only modules the shell reaches whose members it does not load (its pages stay lazy). */
const NOT_FOLLOWED = [/\/apps\/web\/src\/features\/[^/]+\/index\.ts$/];
/**
 * The chart renderer's parts loaded on demand (shared/charts/lazy-parts.tsx) besides ECharts: the
 * tables (antd's table, tree, popover), the select and the date picker of the filter controls.
 */
const CHART_PARTS = ['src/shared/charts/TableViews.tsx', 'src/shared/charts/FilterSelect.tsx', 'src/shared/charts/FilterDate.tsx'];
let closures: { phone: Set<string>; share: Set<string>; shell: Set<string> } | null = null;
let chartParts: Set<string> | null = null;

/**
 * `chart-parts`: what the table and filter parts add to the viewer's chunks, in one file. Left to
 * the automatic split it was 12 small chunks (table, tree, dropdown, radio, checkbox, icons …)
 * that took HTTP/1.1's 6 connections just when a board's chart data was asked for (issue 24).
 */
function chartPartsChunkOf(id: string, ctx: ChunkingContext): string | null {
  if (viewerChunkOf(id, ctx) !== null) return null;
  chartParts ??= viewerClosure(ctx, CHART_PARTS);
  return chartParts.has(id) ? 'chart-parts' : null;
}

/**
 * The chunk a module of the viewer pages goes into: `echarts` (ECharts and its renderer: also
 * the editors'), `viewer-libs` (antd and the other packages of the phone viewer and of the
 * shell), `share-libs` (what only the share page adds: its forms, the slideshow viewer), `viewer`
 * and `share` (our own code, the same way), `shell-common` (our modules the shell imports too: the
 * shell must not import the viewer's chunk, and with it ECharts, on every page; also our modules
 * only the shell and the route table import); null for any other module no viewer page imports
 * (left to the automatic split). Other pages that use one of these modules load its chunk.
 */
function viewerChunkOf(id: string, ctx: ChunkingContext): string | null {
  closures ??= { phone: viewerClosure(ctx, PHONE_PAGES), share: viewerClosure(ctx, SHARE_PAGES), shell: viewerClosure(ctx, SHELL, NOT_FOLLOWED) };
  const { phone, share, shell } = closures;
  // Our modules of the shell and the route table that no viewer page imports: needed by every
  // page but /login all the same, so one file rather than a few small ones; not the viewers'
  // file, which would take with them what they import (the contracts' schemas, built when loaded).
  if (!phone.has(id) && !share.has(id)) return shell.has(id) && !id.includes('/node_modules/') ? 'shell-app' : null;
  if (/[\\/]node_modules[\\/](echarts|zrender)[\\/]/.test(id) || id.endsWith('/shared/charts/EChart.tsx')) return 'echarts';
  if (!id.includes('/node_modules/')) return shell.has(id) ? 'shell-common' : phone.has(id) ? 'viewer' : 'share';
  return phone.has(id) || shell.has(id) ? 'viewer-libs' : 'share-libs';
}

const REEXPORT = /export\s*\{\s*default as (\w+)\s*\}\s*from\s*["']([^"']+)["']/g;

/**
 * The modules `pages` import statically. A package's barrel (antd's icons: hundreds of
 * `export { default as X } from './X'`) is followed only to the names some module of the closure
 * imports: the graph lists every re-export, tree-shaking keeps only the used ones.
 */
function viewerClosure(ctx: ChunkingContext, pages: readonly string[], notFollowed: readonly RegExp[] = []): Set<string> {
  const seen = new Set<string>();
  const imported = new Set<string>();
  const barrels: string[] = [];
  const followed: string[] = [];
  const visit = (moduleId: string) => {
    if (seen.has(moduleId)) return;
    seen.add(moduleId);
    const info = ctx.getModuleInfo(moduleId);
    if (!info) return;
    const code = info.code ?? '';
    for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from/g)) for (const name of m[1]!.split(',')) imported.add(name.trim().split(/\s+as\s+/)[0]!);
    if (notFollowed.some((pattern) => pattern.test(moduleId))) return;
    if (moduleId.includes('/node_modules/') && (code.match(REEXPORT)?.length ?? 0) >= 20) barrels.push(moduleId);
    else info.importedIds.forEach(visit);
  };
  const followBarrels = () => {
    while (barrels.length > 0) {
      const barrel = barrels.pop()!;
      followed.push(barrel);
      const info = ctx.getModuleInfo(barrel)!;
      const targets = new Map<string, string>();
      for (const [, name, spec] of info.code!.matchAll(REEXPORT)) targets.set(path.resolve(path.dirname(barrel), spec!), name!);
      for (const dep of info.importedIds) {
        const name = targets.get(dep.replace(/(\/index)?\.[cm]?js$/, ''));
        if (name === undefined || imported.has(name)) visit(dep);
      }
    }
  };
  for (const page of pages) visit(path.join(import.meta.dirname, page));
  followBarrels();
  // A barrel itself is no member: a group that took it would take everything it re-exports.
  for (const barrel of followed) seen.delete(barrel);
  return seen;
}

/**
 * Files that only declare: a feature's index.ts (re-exports) and the contracts' schema files (its
 * index.ts sets zod's Chinese messages, so it keeps its side effects).
 */
const DECLARATIONS_ONLY = [/\/apps\/web\/src\/features\/[^/]+\/index\.ts$/, /\/packages\/contracts\/src\/(?!index\.ts$)[^/]+\.ts$/];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), earlyBoot(), precompress()],
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      treeshake: {
        // Modules that only declare (schemas, re-exports): dropped when nothing of theirs is used.
        // Without this, importing one label from a feature's index.ts (app/pages.ts) kept every page
        // it re-exports, with their charts, in the chunk /login loads, and one schema from
        // @shutu/contracts kept all of them (issue 26, docs/web-performance.md).
        moduleSideEffects: (id) => (DECLARATIONS_ONLY.some((pattern) => pattern.test(id)) ? false : undefined),
      },
      output: {
        // Everything the entry imports statically in one chunk: it all loads before the first
        // paint anyway, and 40 small shared chunks cost 40 requests, 6 at a time on HTTP/1.1.
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'], priority: 3 },
            // The phone viewer and the share link (issue 24, 26): what their pages import, in three
            // files instead of about fifty (six at a time over HTTP/1.1, a round trip each on 4G).
            // Separate groups, ordered: a group takes the modules its members import, so the
            // libraries are taken first and our code's group finds them gone.
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'echarts' ? 'echarts' : null), priority: 2.2 },
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'viewer-libs' ? 'viewer-libs' : null), priority: 2.1 },
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'share-libs' ? 'share-libs' : null), priority: 2.05 },
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'shell-common' ? 'shell-common' : null), priority: 2.02 },
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'shell-app' ? 'shell-app' : null), priority: 2.01 },
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'viewer' ? 'viewer' : null), priority: 2 },
            { name: (id, ctx) => (viewerChunkOf(id, ctx) === 'share' ? 'share' : null), priority: 1.95 },
            { name: chartPartsChunkOf, priority: 1.9 },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // Before every file (also when files share a worker's modules): jsdom's missing browser APIs.
    setupFiles: ['src/test/setup.ts'],
    // Rendering antd in jsdom is slow on a small CI machine.
    testTimeout: 30_000,
  },
});
