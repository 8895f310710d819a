import { defineConfig } from 'vitest/config';

/**
 * Browser tests: run after the web app is built. Each file starts its own server on a free port
 * with its own data directory, so two files run at once: most of a file's time is spent waiting
 * (a server starting, a job's tick, a page's request), and two at a time halved the wall time.
 * Polls get 10 s (vitest's default is 1 s): a busy machine is slower, not wrong.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    expect: { poll: { timeout: 10_000 } },
    globalSetup: ['./global-setup.ts'],
    setupFiles: ['./csp-check.ts'],
  },
});
