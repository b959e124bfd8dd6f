// `npm test`: install deps if needed, then typecheck, lint (ESLint), unit tests
// (Vitest) and e2e tests (Playwright). Every selected stage runs even if an earlier one
// failed. The last line printed is always `tests: N passed, M failed`.
//
//   npm test                 all stages
//   npm test -- --unit       only Vitest
//   npm test -- --e2e        only Playwright
//   npm test -- --typecheck  only tsc
//   npm test -- --lint       only ESLint
//   (flags combine: `npm test -- --unit --e2e`)
//
// Exit code is non-zero if any stage failed or if no test ran at all.

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureDeps, npmCommand, ROOT } from './ensure-deps.mjs';
import { findBrowser } from './find-browser.mjs';

const STAGES = ['typecheck', 'lint', 'unit', 'e2e'];
const RESULTS_DIR = path.join(ROOT, 'test-results');
const UNIT_JSON = path.join(RESULTS_DIR, 'unit.json');
const E2E_JSON = path.join(RESULTS_DIR, 'e2e.json');

function parseArgs(argv) {
  const selected = new Set();
  for (const arg of argv) {
    const name = arg.replace(/^--/, '');
    if (arg.startsWith('--') && STAGES.includes(name)) {
      selected.add(name);
    } else {
      console.error(`Unknown argument: ${arg}\nUsage: npm test [-- --typecheck] [--lint] [--unit] [--e2e]`);
      process.exit(2);
    }
  }
  return selected.size > 0 ? selected : new Set(STAGES);
}

function banner(text) {
  console.log(`\n=== ${text} ${'='.repeat(Math.max(0, 70 - text.length))}`);
}

function run(cmd, args, { shell = false, timeout } = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', shell, timeout, env: process.env });
  if (res.error) {
    console.error(`failed to run ${cmd}: ${res.error.message}`);
    return 1;
  }
  return res.status ?? 1;
}

/**
 * Runs a command with the signals that would end this run (SIGINT, SIGTERM, SIGHUP) passed on to it, and waits for
 * it: Playwright then stops its preview server before it goes, instead of being left running behind a run that ended.
 */
function runForwarding(cmd, args) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const forward = (signal) => child.kill(signal);
    for (const signal of signals) process.on(signal, forward);
    const finish = (code) => {
      for (const signal of signals) process.off(signal, forward);
      done(code);
    };
    child.on('error', (err) => {
      console.error(`failed to run ${cmd}: ${err.message}`);
      finish(1);
    });
    child.on('exit', (code) => finish(code ?? 1));
  });
}

// eslint-disable-next-line no-restricted-syntax -- forwards its own few arguments
const bin = (...p) => path.join(ROOT, 'node_modules', ...p);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Vitest JSON: tests, plus test files that failed without a failing test (import/syntax errors). */
function vitestCounts(json) {
  const passed = json.numPassedTests ?? 0;
  let failed = json.numFailedTests ?? 0;
  let fileErrors = 0;
  for (const file of json.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed').length;
    if (file.status === 'failed' && failedTests === 0) fileErrors++;
  }
  failed += fileErrors;
  return { passed, failed, note: fileErrors ? `${fileErrors} test file(s) failed to load` : '' };
}

/** Playwright JSON: expected (+ flaky, which passed on retry) vs unexpected, plus global errors. */
function playwrightCounts(json) {
  const stats = json.stats ?? {};
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  const globalErrors = (json.errors ?? []).length;
  const failed = (stats.unexpected ?? 0) + globalErrors;
  const notes = [];
  if (stats.flaky) notes.push(`${stats.flaky} flaky`);
  if (stats.skipped) notes.push(`${stats.skipped} skipped`);
  if (globalErrors) {
    const first = String(json.errors[0]?.message ?? '')
      .split('\n')[0]
      .slice(0, 120);
    notes.push(`${globalErrors} global error(s)${first ? `: ${first}` : ''}`);
  }
  return { passed, failed, note: notes.join(', ') };
}

function ensureBrowser() {
  let exe = findBrowser();
  if (exe) {
    console.log(`browser: ${exe}`);
    return true;
  }
  console.log('browser: no Chromium found; trying `npx playwright install chromium` ...');
  const code = run(process.execPath, [bin('@playwright', 'test', 'cli.js'), 'install', 'chromium'], { timeout: 15 * 60_000 });
  exe = findBrowser();
  if (exe) {
    console.log(`browser: ${exe}`);
    return true;
  }
  // No download (no network): the distribution's Chromium, where this user may install it (root with apt-get).
  if (process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0) {
    console.log("browser: installing the distribution's chromium with apt-get ...");
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { timeout: 15 * 60_000 });
    exe = findBrowser();
    if (!exe) {
      run('apt-get', ['update'], { timeout: 10 * 60_000 });
      run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { timeout: 15 * 60_000 });
      exe = findBrowser();
    }
    if (exe) {
      console.log(`browser: ${exe}`);
      return true;
    }
  }
  console.error(
    [
      '',
      `browser: ERROR: no Chromium available for the e2e tests (playwright install exited ${code}).`,
      '  Fix one of:',
      '    - npx playwright install chromium        (needs internet access)',
      '    - sudo apt-get install -y chromium       (Debian; Ubuntu: sudo snap install chromium; or install Google Chrome)',
      '    - CHROME_PATH=/path/to/chrome npm test   (use an existing Chrome/Chromium)',
      '',
    ].join('\n'),
  );
  return false;
}

/**
 * The preview server's port: E2E_PORT when set, else 4173 when it is free, else any free port (scripts/free-port.mjs),
 * so a preview left running (or the user's own `npm run preview`) never stops the run.
 */
function e2ePort() {
  if (process.env.E2E_PORT) return process.env.E2E_PORT;
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'free-port.mjs'), '4173'], { encoding: 'utf8' });
  const port = (res.stdout ?? '').trim();
  if (!/^\d+$/.test(port)) return '4173';
  if (port !== '4173') console.log(`e2e: port 4173 is taken; the preview server uses ${port}`);
  return port;
}

async function main() {
  const selected = parseArgs(process.argv.slice(2));
  /** @type {{ name: string, ok: boolean, passed?: number, failed?: number, note?: string, secs?: number }[]} */
  const results = [];
  let passed = 0;
  let failed = 0;

  banner('dependencies');
  if (!ensureDeps()) {
    results.push({ name: 'deps', ok: false, note: 'npm install failed; no stage could run' });
    return finish(results, 0, 0);
  }
  mkdirSync(RESULTS_DIR, { recursive: true });

  let browserOk = true;
  if (selected.has('e2e')) {
    banner('browser');
    browserOk = ensureBrowser();
  }

  for (const stage of STAGES) {
    if (!selected.has(stage)) continue;
    if (stage === 'unit') {
      // The CLI tests run bin/iggy-batch.mjs: rebuild dist-cli/ so they test the build that ships, from today's sources.
      banner('cli build');
      const code = run(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs')]);
      if (code !== 0) results.push({ name: 'cli build', ok: false, note: `exit ${code}; the CLI tests ran from the sources` });
    }
    banner(stage);
    const t0 = Date.now();
    // Checks, not tests: they pass or fail as a whole and add nothing to the test counts.
    if (stage === 'typecheck' || stage === 'lint') {
      const { cmd, args, shell } = npmCommand(['run', '--silent', stage]);
      const code = run(cmd, args, { shell });
      results.push({ name: stage, ok: code === 0, note: code === 0 ? '' : `exit ${code}`, secs: (Date.now() - t0) / 1000 });
      continue;
    }

    const jsonFile = stage === 'unit' ? UNIT_JSON : E2E_JSON;
    rmSync(jsonFile, { force: true }); // never count a stale report
    if (stage === 'e2e') process.env.E2E_PORT = e2ePort();
    const code =
      stage === 'unit'
        ? run(process.execPath, [
            bin('vitest', 'vitest.mjs'),
            'run',
            '--reporter=default',
            '--reporter=json',
            `--outputFile.json=${path.relative(ROOT, UNIT_JSON)}`,
          ])
        : await runForwarding(process.execPath, [bin('@playwright', 'test', 'cli.js'), 'test']);
    const secs = (Date.now() - t0) / 1000;
    const json = readJson(jsonFile);
    if (!json) {
      // Crashed before reporting: count it as one failure so the summary
      // line never claims "0 failed" for tests that could not run.
      results.push({ name: stage, ok: false, passed: 0, failed: 1, note: `exit ${code}, no JSON report written`, secs });
      failed += 1;
      continue;
    }
    const counts = stage === 'unit' ? vitestCounts(json) : playwrightCounts(json);
    const notes = [counts.note];
    if (stage === 'e2e' && !browserOk) notes.push('no browser available');
    if (code !== 0 && counts.failed === 0) notes.push(`exit ${code}`);
    passed += counts.passed;
    failed += counts.failed;
    results.push({
      name: stage,
      ok: code === 0 && counts.failed === 0,
      passed: counts.passed,
      failed: counts.failed,
      note: notes.filter(Boolean).join('; '),
      secs,
    });
  }
  return finish(results, passed, failed);
}

function finish(results, passed, failed) {
  banner('summary');
  for (const r of results) {
    const counts = r.passed !== undefined ? `${r.passed} passed, ${r.failed} failed` : '';
    const time = r.secs !== undefined ? `(${r.secs.toFixed(1)}s)` : '';
    const note = r.note ? `- ${r.note}` : '';
    console.log(`${r.name.padEnd(10)} ${r.ok ? 'PASS' : 'FAIL'}  ${[counts, time, note].filter(Boolean).join(' ')}`);
  }
  const allOk = results.every((r) => r.ok);
  const testStages = results.filter((r) => r.passed !== undefined);
  if (testStages.length > 0 && passed + failed === 0) console.log('ERROR: no tests ran');
  console.log(`tests: ${passed} passed, ${failed} failed`);
  const ok = allOk && (testStages.length === 0 || passed + failed > 0) && results.length > 0;
  return ok ? 0 : 1;
}

process.exitCode = await main();
