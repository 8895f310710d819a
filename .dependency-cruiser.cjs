/**
 * Module boundaries, checked by `npm test` (scripts/check-boundaries.mjs runs this and the
 * folder-cycle check). docs/architecture.md "Boundaries" says why each rule exists.
 */
const MODULE = '^apps/server/src/modules/([^/]+)/';
const TEST = '[.]test[.]tsx?$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files import each other in a circle.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-not-to-apps',
      comment: 'Packages are below the apps: they never import an app.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-not-to-server',
      comment: 'The web app talks to the server over HTTP only; shared types live in @shutu/contracts.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-module-public-api',
      comment: "A server module imports another module only through that module's index.ts.",
      severity: 'error',
      from: { path: MODULE, pathNot: TEST },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: ['^apps/server/src/modules/$1/', '^apps/server/src/modules/[^/]+/index[.]ts$', '^apps/server/src/modules/datasource/registry[.]ts$'],
      },
    },
    {
      name: 'warehouse-reads-through-read-module',
      comment:
        'The driver (and its query method) is reached only by the read module, file tables (bulk loads) and the data-source module itself: every other read of warehouse data goes through modules/read.',
      severity: 'error',
      from: { path: MODULE, pathNot: [TEST, '^apps/server/src/modules/(read|filetable|datasource)/'] },
      to: { path: '^apps/server/src/modules/datasource/registry[.]ts$' },
    },
    {
      name: 'platform-not-to-modules',
      comment: 'platform/ is infrastructure: it never imports a domain module.',
      severity: 'error',
      from: { path: '^apps/server/src/platform/', pathNot: TEST },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'production-not-to-testing',
      comment: 'Test-only code (apps/server/test, */testing/) is never imported by production code.',
      severity: 'error',
      from: { path: '^(apps|packages)/[^/]+/src/', pathNot: [TEST, '/testing/'] },
      to: { path: ['^apps/server/test/', '/src/testing/'] },
    },
    {
      name: 'declared-packages-only',
      comment: 'A workspace imports only packages its own package.json declares.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'resolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|artifacts)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
