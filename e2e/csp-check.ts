import { afterEach } from 'vitest';
import { takeCspViolations } from './harness.ts';

/**
 * Setup file of every e2e file (vitest.config.ts): a test whose pages logged a
 * Content-Security-Policy violation fails. A setup file rather than a hook in harness.ts, so that
 * the benchmarks can use the harness outside vitest.
 */
afterEach(() => {
  const seen = takeCspViolations();
  if (seen.length > 0) throw new Error(`Content-Security-Policy violations:\n${[...new Set(seen)].join('\n')}`);
});
