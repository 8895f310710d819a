import { defineConfig } from 'vitest/config';

/** Browser tests: run after the web app is built, one file at a time (each starts a server). */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ['./global-setup.ts'],
    setupFiles: ['./csp-check.ts'],
  },
});
