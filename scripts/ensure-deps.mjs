// Make sure node_modules is installed and matches package-lock.json.
//
//   - node_modules missing, or any package recorded in package-lock.json is
//     missing / at a different version, or a package.json dependency is not
//     installed  ->  `npm ci`
//   - no package-lock.json and a package.json dependency is missing
//     ->  `npm install`
//
// Plain Node ESM with no dependencies (it runs before anything is installed).
// CLI: `node scripts/ensure-deps.mjs` (exit code 1 if installation failed).

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function installedVersion(root, pkgDir) {
  try {
    return readJson(path.join(root, pkgDir, 'package.json')).version ?? null;
  } catch {
    return null;
  }
}

/**
 * Why node_modules needs (re)installing, or null if it is up to date.
 * @param {string} [root]
 * @returns {string | null}
 */
export function depsProblem(root = ROOT) {
  if (!existsSync(path.join(root, 'node_modules'))) return 'node_modules is missing';

  const pkg = readJson(path.join(root, 'package.json'));
  const declared = {
    ...pkg.dependencies,
    ...pkg.devDependencies,
  };
  for (const name of Object.keys(declared)) {
    if (installedVersion(root, path.join('node_modules', name)) === null) {
      return `${name} is not installed`;
    }
  }

  const lockFile = path.join(root, 'package-lock.json');
  if (!existsSync(lockFile)) return null;
  const lock = readJson(lockFile);
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (!key.startsWith('node_modules/') && !key.includes('/node_modules/')) continue;
    if (entry.link) {
      if (!existsSync(path.join(root, key))) return `${key} is missing`;
      continue;
    }
    const version = installedVersion(root, key);
    // Optional packages (other platforms' native binaries, ...) may be absent.
    if (version === null) {
      if (entry.optional) continue;
      return `${key} is missing`;
    }
    if (entry.version && version !== entry.version) {
      return `${key} is ${version}, package-lock.json wants ${entry.version}`;
    }
  }
  return null;
}

/**
 * How to invoke npm: the npm that launched us (under `npm run`), else `npm` on PATH.
 * @param {string[]} args
 * @returns {{ cmd: string, args: string[], shell: boolean }}
 */
export function npmCommand(args) {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.[cm]?js$/.test(execPath)) {
    return { cmd: process.execPath, args: [execPath, ...args], shell: false };
  }
  return { cmd: 'npm', args, shell: process.platform === 'win32' };
}

/**
 * Install dependencies if needed. Returns true when node_modules is usable.
 * @param {{ root?: string, quiet?: boolean }} [options]
 * @returns {boolean}
 */
export function ensureDeps({ root = ROOT, quiet = false } = {}) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.warn(`warning: Node ${process.versions.node} is older than the required 20.19; Vite may not run.`);
  }

  const problem = depsProblem(root);
  if (!problem) {
    if (!quiet) console.log('deps: node_modules is up to date');
    return true;
  }
  // A symlinked node_modules is shared with another checkout: npm ci here would empty the shared
  // directory and install this checkout's lock into it. Say so and go on with what is there.
  if (lstatSync(path.join(root, 'node_modules'), { throwIfNoEntry: false })?.isSymbolicLink()) {
    console.warn(`deps: ${problem}; node_modules is a symlink to a shared install, so it is left as it is (reinstall where it points)`);
    return true;
  }
  const hasLock = existsSync(path.join(root, 'package-lock.json'));
  const args = hasLock ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  console.log(`deps: ${problem}; running npm ${args[0]} ...`);
  const { cmd, args: fullArgs, shell } = npmCommand(args);
  const result = spawnSync(cmd, fullArgs, { cwd: root, stdio: 'inherit', shell });
  if (result.error || result.status !== 0) {
    console.error(`deps: npm ${args[0]} failed${result.error ? `: ${result.error.message}` : ` (exit ${result.status})`}`);
    return false;
  }
  const after = depsProblem(root);
  if (after) {
    console.error(`deps: still inconsistent after npm ${args[0]}: ${after}`);
    return false;
  }
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = ensureDeps() ? 0 : 1;
}
