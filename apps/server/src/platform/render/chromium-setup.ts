import { spawnSync } from 'node:child_process';
import { loadConfig } from '../config.ts';
import { isRendererAvailable } from './pool.ts';

/**
 * Vitest global setup of the server project: on CI the renderer suites need Debian's
 * Chromium and CJK fonts (so Chinese is not drawn as boxes); install them when missing,
 * as e2e/global-setup.ts does. Developer machines without them skip those suites instead.
 */
export default function setup(): void {
  if (process.env.CI !== 'true') return;
  const fontsPresent = spawnSync('dpkg', ['-s', 'fonts-noto-cjk'], { stdio: 'ignore' }).status === 0;
  if (isRendererAvailable(loadConfig().chromiumPath) && fontsPresent) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
  }
}
