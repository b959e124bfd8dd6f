// What the bench:page modes share: the repository root, units, the segment file and the C verifier.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root (this file is in scripts/bench/). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Bytes in a MiB. */
export const MiB = 1 << 20;

/** Milliseconds as whole `N ms`. */
export const fmtMs = (ms) => `${ms.toFixed(0)} ms`;
/** Bytes as `N.N MiB`. */
export const fmtMiB = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

let tsxRegistered = false;
/** Builds the segment with the project's encoder (through tsx, as bin/run-ts.mjs does), or reuses one. */
export async function segmentFile(mib, payload, perBatch) {
  if (!tsxRegistered) {
    const { register } = await import("tsx/esm/api");
    register();
    tsxRegistered = true;
  }
  const { planSegment, buildSegment } = await import(pathToFileURL(path.join(ROOT, "scripts", "bench", "segment.ts")).href);
  const { loadXxh3 } = await import(pathToFileURL(path.join(ROOT, "src", "checksum", "xxh3.ts")).href);
  const plan = planSegment(payload, mib * MiB, perBatch);
  const file = path.join(os.tmpdir(), `iggy-bench-page-${mib}MiB-p${payload}${perBatch === undefined ? "" : `-b${perBatch}`}-00000000000000000000.log`);
  if (existsSync(file) && statSync(file).size === plan.totalBytes) return { file, plan, reused: true, buildMs: 0 };
  const t0 = performance.now();
  const bytes = buildSegment(await loadXxh3(), plan);
  writeFileSync(file, bytes);
  return { file, plan, reused: false, buildMs: performance.now() - t0 };
}

/** The C verifier of `npm run bench` (scripts/bench/native.ts), or the reason it is missing. */
export async function nativeVerifier() {
  const native = await import(pathToFileURL(path.join(ROOT, "scripts", "bench", "native.ts")).href);
  if (!native.hasGnuTime()) return { missing: "no /usr/bin/time" };
  const built = native.buildNativeVerifier();
  return "path" in built ? { path: built.path, time: (file) => native.timeProcess(built.path, [file]).seconds * 1000 } : built;
}

/** A copy of the segment with one payload byte of batch 0 flipped, for Compare batches (built next to it, or reused). */
export function otherFile(file, plan) {
  const other = file.replace(/\.log$/, "-other.log");
  if (existsSync(other) && statSync(other).size === plan.totalBytes) return other;
  const bytes = readFileSync(file);
  bytes[256 + 48 + 5] ^= 0xff;
  writeFileSync(other, bytes);
  return other;
}
