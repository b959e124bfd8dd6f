// Locate a Chromium binary that Playwright can drive.
//
// Order of preference:
//   1. $CHROME_PATH, if set (explicit override; must exist).
//   2. Playwright's own Chromium (`chromium.executablePath()` from playwright-core),
//      if that file exists on disk (i.e. `npx playwright install chromium` was run).
//   3. A system Chromium/Chrome: /usr/bin/chromium, then `chromium`,
//      `chromium-browser`, `google-chrome`, `google-chrome-stable` on $PATH.
//
// Plain Node ESM with no dependencies: it must work before `npm ci` has run
// (playwright-core is simply skipped when it cannot be loaded).
//
// CLI: `node scripts/find-browser.mjs` prints the path, or exits 1 if none.

import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium'];
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function loadPlaywrightCore() {
  const require = createRequire(import.meta.url);
  try {
    return require('playwright-core');
  } catch {
    // Not hoisted (e.g. pnpm): resolve it from @playwright/test's location.
    try {
      const testPkg = require.resolve('@playwright/test/package.json');
      return createRequire(testPkg)('playwright-core');
    } catch {
      return null;
    }
  }
}

/** @returns {string | null} Playwright's bundled Chromium, if downloaded. */
export function findPlaywrightChromium() {
  const pw = loadPlaywrightCore();
  if (!pw) return null;
  try {
    const exe = pw.chromium.executablePath();
    return exe && existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}

/** @returns {string | null} A Chromium/Chrome found on the system. */
export function findSystemChromium() {
  for (const file of SYSTEM_CANDIDATES) {
    if (isExecutableFile(file)) return file;
  }
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const name of PATH_NAMES) {
    for (const dir of dirs) {
      for (const ext of exts) {
        const file = path.join(dir, name + ext);
        if (isExecutableFile(file)) return file;
      }
    }
  }
  return null;
}

/**
 * Path of a Chromium executable to launch, or null if none is available.
 * @returns {string | null}
 */
export function findBrowser() {
  const override = process.env.CHROME_PATH;
  if (override) return isExecutableFile(override) ? override : null;
  return findPlaywrightChromium() ?? findSystemChromium();
}

export default findBrowser;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const exe = findBrowser();
  if (exe) {
    console.log(exe);
  } else {
    console.error(
      process.env.CHROME_PATH
        ? `CHROME_PATH=${process.env.CHROME_PATH} is not an executable file.`
        : 'No Chromium found (set CHROME_PATH, run `npx playwright install chromium`, or install chromium).',
    );
    process.exitCode = 1;
  }
}
