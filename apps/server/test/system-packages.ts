import { spawnSync } from 'node:child_process';

/**
 * The Debian packages the test suites spawn or drive, in one list: Chromium (renderer and
 * browser tests), CJK fonts (so Chinese is not drawn as boxes) and poppler-utils (pdfinfo and
 * pdftoppm read the slideshow PDFs). A fresh machine has none of them, so the server project's
 * global setup and e2e/global-setup.ts install what is missing; on CI a failed install fails
 * the run, elsewhere the suites that need a missing package skip.
 */
export const TEST_SYSTEM_PACKAGES = ['chromium', 'fonts-noto-cjk', 'poppler-utils'] as const;

export function isPackageInstalled(name: string): boolean {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

/** True when the command runs (found on PATH). */
export function hasCommand(command: string): boolean {
  return spawnSync(command, ['-v'], { stdio: 'ignore' }).error === undefined;
}

/** Installs the missing packages with apt-get (as root, which this project's machines are). */
export function ensureSystemPackages(packages: readonly string[] = TEST_SYSTEM_PACKAGES): void {
  const missing = packages.filter((name) => !isPackageInstalled(name));
  if (missing.length === 0) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', ...lock, ...missing], { stdio: 'inherit', env });
  // The package lists of a fresh machine may be missing or old: update only when installing fails.
  if (install().status === 0) return;
  const update = spawnSync('apt-get', ['update', '-qq', ...lock], { stdio: 'inherit', env });
  if (update.status !== 0 || install().status !== 0) throw new Error(`apt-get could not install ${missing.join(', ')}`);
}

/** Vitest global setup of the server project: on CI, install what the renderer and PDF suites need. */
export default function setup(): void {
  if (process.env.CI === 'true') ensureSystemPackages();
}
