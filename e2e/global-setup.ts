import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openStore } from '../apps/server/src/platform/db/store.ts';
// Not from harness.ts: that module registers test hooks, which only a test file may import.
import { ensureSystemPackages } from '../apps/server/test/system-packages.ts';
import { buildServer } from '../scripts/build-server.mjs';

/**
 * Chromium and CJK fonts, and one migrated metadata store for every app start to copy: a new
 * PGlite cluster (initdb) takes about five seconds, a copy a fraction of one. The server still
 * migrates (nothing left) and seeds it as on any first start.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  ensureSystemPackages();
  // The server bundle every app start runs (harness.ts startApp), built once here rather than by the first files at once.
  await buildServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-e2e-store-'));
  const template = path.join(dir, 'metadata');
  const store = await openStore({ pgliteDir: template });
  try {
    await migrateToLatest(store.db);
  } finally {
    await store.close();
  }
  project.provide('storeTemplate', template);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
