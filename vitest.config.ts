import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import web from './apps/web/vite.config.ts';

/**
 * Web test files that replace modules (vi.mock): they need a module registry of their own.
 * Every other web file shares one per worker (isolate: false): antd, React and ECharts are
 * evaluated once per worker instead of once per file, which was half the web tests' time.
 */
const webSrc = path.join(import.meta.dirname, 'apps/web/src');
const webMocking = fs
  .readdirSync(webSrc, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(do)?[mM]ock\(/.test(fs.readFileSync(path.join(webSrc, f), 'utf8')))
  .map((f) => `src/${f.split(path.sep).join('/')}`);

/**
 * Files that mostly wait (minute boundaries, killed processes, Chromium) start first, so the
 * other worker runs the rest meanwhile. A fresh clone has no timing cache: vitest would keep the
 * glob order, and the schedule test (about three minutes of waiting) started last, alone.
 */
const LONG_FIRST = [
  'apps/server/test/multi-process-schedules.test.ts',
  'apps/server/src/modules/orderexport/orderexport.test.ts',
  'apps/server/src/modules/board/thumbnail.test.ts',
];

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);

    const rank = (spec: TestSpecification) => {
      const at = LONG_FIRST.findIndex((f) => spec.moduleId.endsWith(f));
      return at < 0 ? LONG_FIRST.length : at;
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}

/** One runner for every unit and integration test; e2e runs separately against the built app. */
export default defineConfig({
  test: {
    // PGlite instances are memory-hungry to start; two files at a time fits 2 cores. Set here,
    // not per project: projects with different maxWorkers would each need their own groupOrder.
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      { test: { name: 'packages', include: ['packages/*/src/**/*.test.ts'], environment: 'node', isolate: false } },
      // The repository's own checks (module boundaries).
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          environment: 'node',
          // Files share a worker's modules: module state is kept per AppContext (WeakMaps), and
          // no server test replaces modules. Evaluating the server's imports once per worker
          // instead of once per file took the server and package tests from 405 s to 250 s.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // On CI: installs the Debian packages the suites spawn (Chromium, CJK fonts, poppler-utils).
          globalSetup: ['apps/server/test/system-packages.ts'],
        },
      },
      { ...web, test: { ...web.test, name: 'web', isolate: false, exclude: webMocking } },
      { ...web, test: { ...web.test, name: 'web-mocking', include: webMocking } },
    ],
  },
});
