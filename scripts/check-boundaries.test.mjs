import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBoundaries, folderOf } from './check-boundaries.mjs';

/**
 * The boundary rules can fail: a small tree laid out like the repository, each file breaking
 * one rule on purpose, is checked with the real configuration.
 */
const repo = path.resolve(import.meta.dirname, '..');

const files = {
  'apps/server/package.json': '{ "name": "fixture-server", "dependencies": {} }',
  // A module reaching past another module's index.ts, and reading the driver outside modules/read.
  'apps/server/src/modules/board/reach.ts': "import { findCube } from '../dataset/repo.ts';\nexport const reach = findCube;\n",
  'apps/server/src/modules/board/driver.ts': "import { getDataSourceDriver } from '../datasource/registry.ts';\nexport const driver = getDataSourceDriver;\n",
  'apps/server/src/modules/dataset/repo.ts': 'export const findCube = 1;\n',
  'apps/server/src/modules/dataset/index.ts': "export { findCube } from './repo.ts';\n",
  'apps/server/src/modules/datasource/registry.ts': 'export const getDataSourceDriver = 1;\n',
  // Two files importing each other, and two modules importing each other through their index files.
  'apps/server/src/modules/ppt/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
  'apps/server/src/modules/ppt/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
  'apps/server/src/modules/share/index.ts': "import { p } from '../subscription/index.ts';\nexport const s = p;\n",
  'apps/server/src/modules/subscription/index.ts': "import { s } from '../share/index.ts';\nexport const p = () => s;\n",
  // Production code importing a test-only server; a package not declared by its workspace.
  'apps/server/src/platform/notify/mail.ts':
    "import { startSmtpServer } from '../../../test/notify-servers.ts';\nimport ExcelJS from 'exceljs';\nexport const m = [startSmtpServer, ExcelJS];\n",
  'apps/server/test/notify-servers.ts': 'export const startSmtpServer = 1;\n',
  // A package importing an app, the web app importing the server.
  'packages/query/package.json': '{ "name": "fixture-query" }',
  'packages/query/src/x.ts': "import { findCube } from '../../../apps/server/src/modules/dataset/index.ts';\nexport const x = findCube;\n",
  'apps/web/package.json': '{ "name": "fixture-web" }',
  'apps/web/src/features/a/page.ts': "import { findCube } from '../../../../server/src/modules/dataset/index.ts';\nexport const y = findCube;\n",
};

describe('the boundary check', () => {
  let root;
  let problems;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-boundaries-'));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "fixture", "private": true }');
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    problems = checkBoundaries({ root, paths: ['apps', 'packages'] }).problems;
  }, 60_000);
  afterAll(() => root && fs.rmSync(root, { recursive: true, force: true }));

  const found = (rule, from) => problems.filter((line) => line.startsWith(`${rule}:`) && line.includes(from));

  it('refuses a module reaching past another module’s index.ts', () => {
    expect(found('server-module-public-api', 'modules/board/reach.ts')).toHaveLength(1);
  });

  it('refuses the driver outside the read module', () => {
    expect(found('warehouse-reads-through-read-module', 'modules/board/driver.ts')).toHaveLength(1);
  });

  it('refuses a cycle between files and one between folders', () => {
    expect(found('no-circular', 'modules/ppt/')).not.toHaveLength(0);
    expect(problems.some((line) => line.startsWith('folder-cycle:') && line.includes('modules/share') && line.includes('modules/subscription'))).toBe(true);
  });

  it('refuses packages importing apps, the web app importing the server, and production code importing test servers', () => {
    expect(found('packages-not-to-apps', 'packages/query/src/x.ts')).toHaveLength(1);
    expect(found('web-not-to-server', 'apps/web/src/features/a/page.ts')).toHaveLength(1);
    expect(found('production-not-to-testing', 'platform/notify/mail.ts')).toHaveLength(1);
  });

  it('refuses a package the importing workspace does not declare', () => {
    expect(found('declared-packages-only', 'platform/notify/mail.ts')).toHaveLength(1);
  });

  it('passes the repository itself', () => {
    expect(checkBoundaries().problems).toEqual([]);
  }, 60_000);

  it('groups files into the folders the cycle check compares', () => {
    expect(folderOf('apps/server/src/modules/board/chart-query.ts')).toBe('apps/server/src/modules/board');
    expect(folderOf('apps/web/src/features/perm/grant-scaffold.tsx')).toBe('apps/web/src/features/perm');
    expect(folderOf('apps/web/src/shared/api.ts')).toBe('apps/web/src/shared');
    expect(folderOf('packages/query/src/sql/guard.ts')).toBe('packages/query');
    expect(folderOf('apps/server/src/context.ts')).toBe('apps/server/src/context.ts');
  });
});
