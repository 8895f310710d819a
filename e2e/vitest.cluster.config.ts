import { defineConfig } from 'vitest/config';

/**
 * The board-preview and export flows against the cluster of this machine (issue 27): two ShuTu
 * processes behind the round-robin proxy on one PostgreSQL, files in a local S3 server, the demo
 * warehouse on the two-shard ClickHouse cluster (cluster-setup.ts). `npm test` runs it after the
 * e2e step (scripts/test.mjs "e2e-cluster").
 */
export default defineConfig({
  test: {
    name: 'e2e-cluster',
    root: import.meta.dirname,
    include: ['board-preview.e2e.ts', 'export.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    globalSetup: ['./global-setup.ts', './cluster-setup.ts'],
    setupFiles: ['./csp-check.ts'],
  },
});
