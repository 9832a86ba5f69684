/**
 * Finds a Chromium or Chrome already installed on this machine for the browser tests and for
 * `ckpt-lab check --live`.
 *
 * Both drive the system browser with playwright-core and never download one: CI installs
 * Debian's `chromium` package (see .ci/run), and a developer can point CHROMIUM_PATH at any
 * Chromium-based browser.
 */
import { accessSync, constants, statSync } from 'node:fs';

/** Environment variables checked first, in this order. */
export const CHROMIUM_PATH_ENV_VARS = ['CHROMIUM_PATH', 'CHROME_PATH'] as const;

/**
 * Well-known install locations, in order. `/usr/lib/chromium/chromium` comes before the
 * `/usr/bin/chromium` wrapper script because the wrapper only adds Debian's launcher shell.
 */
export const CHROMIUM_CANDIDATE_PATHS = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
] as const;

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the path of the first executable Chromium found: CHROMIUM_PATH, CHROME_PATH, then the
 * well-known locations. A variable that is set must point at an executable: silently using a
 * different browser than the one asked for would make failures confusing. Otherwise throws an
 * Error naming every path searched and how to install one.
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = CHROMIUM_CANDIDATE_PATHS,
  purpose = 'the browser tests',
): string {
  for (const name of CHROMIUM_PATH_ENV_VARS) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (isExecutableFile(value)) return value;
    throw new Error(
      `${name} is set to ${value}, which is not an executable file. ` +
        `Point it at a Chromium or Chrome binary, or unset it to search ${candidates.join(', ')}.`,
    );
  }
  const searched: string[] = [...CHROMIUM_PATH_ENV_VARS.map((name) => `$${name} (not set)`)];
  for (const path of candidates) {
    searched.push(path);
    if (isExecutableFile(path)) return path;
  }
  throw new Error(
    [
      `No Chromium or Chrome was found for ${purpose}.`,
      'Searched:',
      ...searched.map((path) => `  - ${path}`),
      'Install one (nothing here downloads a browser):',
      '  on Debian/Ubuntu: sudo apt-get install chromium; or set CHROMIUM_PATH=/path/to/chromium',
    ].join('\n'),
  );
}
