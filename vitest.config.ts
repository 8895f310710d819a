import { defineConfig } from 'vitest/config';

/** One runner for every unit and integration test; e2e runs separately against the built app. */
export default defineConfig({
  test: {
    // PGlite instances are memory-hungry to start; two files at a time fits 2 cores. Set here,
    // not per project: projects with different maxWorkers would each need their own groupOrder.
    maxWorkers: 2,
    projects: [
      { test: { name: 'packages', include: ['packages/*/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // On CI: installs Chromium and CJK fonts for the renderer suites when missing.
          globalSetup: ['apps/server/src/platform/render/chromium-setup.ts'],
        },
      },
      './apps/web/vite.config.ts',
    ],
  },
});
