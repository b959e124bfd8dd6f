#!/usr/bin/env node
// A differential run: `iggy-batch inspect PATH --json` of another checkout (default /work/main) and of this one
// over every file under the given roots (default test/fixtures and /work/shared/corpus*), and every partition
// directory there (one holding a .log file); prints each path whose JSON, standard error or exit code differ.
//   node scripts/diff-inspect.mjs [--baseline /work/main] [ROOT...]
import { execFile } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const HERE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const at = args.indexOf("--baseline");
const baseline = at >= 0 ? resolve(args.splice(at, 2)[1]) : "/work/main";
const shared = "/work/shared";
const roots =
  args.length > 0
    ? args
    : [
        join(HERE, "test/fixtures"),
        ...readdirSync(shared)
          .filter((d) => d.startsWith("corpus"))
          .map((d) => join(shared, d)),
      ];

/** Every file under dir, and every directory holding a .log (a partition). */
function inputs(dir) {
  const out = [];
  const names = readdirSync(dir);
  if (names.some((n) => n.endsWith(".log"))) out.push(dir);
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) for (const q of inputs(p)) out.push(q);
    else out.push(p);
  }
  return out;
}

async function inspect(root, path) {
  try {
    const { stdout, stderr } = await run("node", [join(root, "bin/iggy-batch.mjs"), "inspect", path, "--json"], { maxBuffer: 1 << 30, encoding: "utf8" });
    return { code: 0, stdout, stderr };
  } catch (err) {
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

const paths = roots.flatMap(inputs);
let differ = 0;
let same = 0;
const queue = [...paths];
async function worker() {
  for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
    const [a, b] = [await inspect(baseline, p), await inspect(HERE, p)];
    if (a.code !== b.code || a.stdout !== b.stdout || a.stderr !== b.stderr) {
      differ++;
      console.log(
        `DIFFERS ${p}: exit ${a.code}/${b.code}, stdout ${a.stdout.length}/${b.stdout.length} chars${a.stdout === b.stdout ? " (same)" : ""}, stderr ${a.stderr === b.stderr ? "same" : "differs"}`,
      );
    } else same++;
  }
}
await Promise.all([worker(), worker()]);
console.log(`${paths.length} inputs: ${same} identical, ${differ} differ (baseline ${baseline}, this ${HERE})`);
process.exitCode = differ > 0 ? 1 : 0;
