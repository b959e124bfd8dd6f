import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { findBrowser } from './scripts/find-browser.mjs';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const PORT = Number(process.env.E2E_PORT ?? 4173);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Playwright's own Chromium if downloaded, else a system Chromium (see
// scripts/find-browser.mjs). If neither exists, executablePath stays
// undefined and Playwright reports its usual "browser not installed" error.
const executablePath = findBrowser() ?? undefined;

// Keep the browser hermetic: no background/component traffic, and any request
// to a host other than localhost fails fast (unreachable proxy + resolver
// that maps everything except loopback to NOTFOUND; Chromium never proxies
// loopback).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--proxy-server=http://127.0.0.1:9',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export default defineConfig({
  testDir: 'e2e',
  // Artifacts (traces, screenshots). Not `test-results/` itself: Playwright
  // wipes its outputDir on start, which would delete test-results/unit.json.
  outputDir: 'test-results/e2e-artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: BASE_URL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  // Production build + `vite preview`, so the CSP <meta> is exercised.
  webServer: {
    // scripts/preview-server.mjs builds, serves, and ends the server when Playwright goes (its stdin closes), so an
    // interrupted run never leaves a preview holding the port.
    command: `"${process.execPath}" "${path.join(ROOT, 'scripts', 'preview-server.mjs')}" ${PORT}`,
    cwd: ROOT,
    url: BASE_URL,
    // Never reuse: a preview left running would serve an old build.
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
