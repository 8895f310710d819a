import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vitest/config';
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
 * Files that only declare: a feature's index.ts (re-exports) and the contracts' schema files (its
 * index.ts sets zod's Chinese messages, so it keeps its side effects).
 */
const DECLARATIONS_ONLY = [/\/apps\/web\/src\/features\/[^/]+\/index\.ts$/, /\/packages\/contracts\/src\/(?!index\.ts$)[^/]+\.ts$/];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
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
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
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
