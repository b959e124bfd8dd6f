/**
 * The capture fuzzer, run by scripts/fuzz.ts (`npm run fuzz -- --reader capture`) or alone:
 * `node bin/run-ts.mjs test/fuzz-capture.ts [COUNT] [SEED]`. Mutates the capture corpus (bit flips,
 * overwritten words, cuts, spliced blocks) and opens each result: it must never throw, every
 * diagnostic must carry a valid code and ordered range, and message indexes must be dense.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadXxh3, type Xxh3 } from "../src/checksum/xxh3.ts";
import { DIAGNOSTIC_CODES } from "../src/format/diagnostics.ts";
import { memorySource, openCapture, type CaptureResult } from "../src/core/containers/capture/index.ts";
import type { ReaderCase } from "./reader-fuzz.ts";

const DIRS = ["test/fixtures/corpus-captures", "test/fixtures/captures"];

/** Every capture of the test corpora. */
export function loadCaptures(root = "."): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const d of DIRS) for (const f of readdirSync(join(root, d))) if (/\.pcap(ng)?$/.test(f)) out.push(new Uint8Array(readFileSync(join(root, d, f))));
  return out;
}

/** A seeded mutation of one corpus capture. */
export function mutateCapture(corpus: readonly Uint8Array[], seed: number): Uint8Array {
  let s = seed >>> 0 || 1;
  const rnd = (n: number) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % Math.max(1, n);
  };
  const base = corpus[rnd(corpus.length)]!;
  const b = base.slice();
  for (let k = 1 + rnd(8); k > 0; k--) {
    const at = rnd(b.length);
    switch (rnd(4)) {
      case 0:
        b[at] = b[at]! ^ (1 << rnd(8));
        break;
      case 1:
        new DataView(b.buffer).setUint32(Math.min(at, b.length - 4), [0, 0xffffffff, 256, 0x4000000, rnd(1 << 30)][rnd(5)]!, true);
        break;
      case 2:
        return b.subarray(0, at);
      default:
        b.copyWithin(at, rnd(b.length), rnd(b.length));
    }
  }
  return b;
}

/** What is wrong with one opened capture (empty when nothing is). */
export function captureViolations(c: CaptureResult): string[] {
  const out: string[] = [];
  const codes = new Set<string>(DIAGNOSTIC_CODES);
  for (const d of c.diagnostics) {
    if (!codes.has(d.code)) out.push(`unknown code ${d.code}`);
    if (!(d.end >= d.start && d.start >= 0)) out.push(`${d.code}: range ${d.start}..${d.end}`);
  }
  for (const conn of c.connections)
    conn.messages.forEach((m, i) => {
      if (!m || m.index !== i) out.push(`connection ${conn.index}: message slot ${i} holds ${m?.index}`);
    });
  return out;
}

/** Opens mutated capture `i` of `seed` and checks it: its size, its problems (a throw is one), and its bytes to reproduce it. */
export function captureCase(xxh: Xxh3, corpus: readonly Uint8Array[], seed: number, i: number): ReaderCase {
  const bytes = mutateCapture(corpus, seed * 1_000_003 + i);
  const what = `case ${i}: ${bytes.length} B`;
  try {
    return { what, size: bytes.length, bytes, problems: captureViolations(openCapture(xxh, memorySource(bytes))) };
  } catch (err) {
    return { what, size: bytes.length, bytes, problems: [`threw ${(err as Error).stack ?? String(err)}`] };
  }
}

/** The capture reader's fuzzer in the shape scripts/fuzz.ts runs (`npm run fuzz -- --reader capture`). */
export function captureFuzzer(xxh: Xxh3, seed: number, root = "."): { next(i: number): ReaderCase; seeds: number } {
  const corpus = loadCaptures(root);
  return { seeds: corpus.length, next: (i) => captureCase(xxh, corpus, seed, i) };
}

/** Opens `count` mutated captures from `seed`; returns the failures. */
export function fuzzCaptures(xxh: Xxh3, corpus: readonly Uint8Array[], count: number, seed: number): string[] {
  const failures: string[] = [];
  for (let i = 0; i < count; i++) {
    const c = captureCase(xxh, corpus, seed, i);
    if (c.problems.length) failures.push(`${c.what}: ${c.problems.join("; ")}`);
  }
  return failures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 2000);
  const seed = Number(process.argv[3] ?? 1);
  const xxh = await loadXxh3();
  const t0 = performance.now();
  const failures = fuzzCaptures(xxh, loadCaptures(), count, seed);
  for (const f of failures.slice(0, 20)) console.log(`FAIL seed ${seed} ${f}`);
  console.log(`fuzz-capture: ${count} captures (seed ${seed}) in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${failures.length} failures`);
  process.exitCode = failures.length ? 1 : 0;
}
