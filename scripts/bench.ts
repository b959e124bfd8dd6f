/**
 * `npm run bench [-- --mib N --sizes 16,100,1k --runs 5]`: times analyze() on an in-memory
 * segment of stamped batches for each payload size, and the kernel's hashing alone on the same frames
 * for the small sizes, so the decoder's own cost per frame can be read off.
 *
 * Each payload size runs in its own child process (this file with --child), so its RSS and
 * maxRSS belong to that size alone; --in-process runs them here (e.g. under --cpu-prof).
 */
import { fork } from "node:child_process";
import os from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { analyze } from "../src/core/walk/analyze.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import type { Analysis } from "../src/core/model/model.ts";
import { buildSegment, DEFAULT_MAX_BATCH_BYTES, DEFAULT_MESSAGES_PER_BATCH, frameWindows, planSegment } from "./bench/segment.ts";
import { measureRecheck } from "./bench/recheck.ts";
import { copyInMs, freshColumnsMs, kernelWalkMs, noSimdModule } from "./bench/kernel-alone.ts";
import { buildNativeVerifier, nativeInMemoryNs } from "./bench/native.ts";
import { cliSection } from "./bench/cli-bench.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { measureEditOverlay } from "./bench/edit-overlay.ts";
import { captureSection, parseCaptureSize } from "./bench/capture-bench.ts";

const USAGE = `usage: npm run bench -- [--mib N] [--sizes LIST] [--runs N] [--hash-sizes LIST] [--per-batch N] [--in-process]

  --mib N          segment size per payload size in MiB (default 256)
  --sizes LIST     payload sizes, e.g. 16,100,1k,16k,1m (default 16,100,1k,16k,1m)
  --runs N         timed runs after one warm-up; the median is reported (default 5)
  --hash-sizes L   sizes that also time hashing alone through hashWindows (default 16,100)
  --per-batch N    messages per batch, fewer when a batch would pass 1 MiB (default ${DEFAULT_MESSAGES_PER_BATCH})
  --in-process     run every size in this process (maxRSS is then cumulative)
  --cli-mib N      whole-process CLI runs on a segment file of N MiB in /tmp, deleted after (default 1024; 0 skips)
  --cli-sizes L    payload sizes of the CLI runs (default 100,1k)
  --baseline-bin P another checkout's bin/iggy-batch.mjs timed on the same file (e.g. /work/main/bin/iggy-batch.mjs);
                   with --capture, its inspect of the capture too
  --capture        instead: a capture of Iggy traffic (written once, kept in the temp dir), \`inspect --json --no-frames\`
                   of it against the C verifier over the same batches and against \`tshark -r FILE -q\` (issue #24)
  --capture-size S the capture's size, e.g. 64M or 1G (default 1G); runs: --runs, at most 3`;

const MiB = 1 << 20;
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");

/** What one child measures for one payload size; plain numbers so it crosses IPC as JSON. */
interface SizeResult {
  payloadSize: number;
  messagesPerBatch: number;
  batches: number;
  frames: number;
  bytes: number;
  buildMs: number;
  analyzeMs: number[];
  diagnostics: number;
  rssBeforeBytes: number;
  peakRssBytes: number;
  maxRssKiB: number;
  hashMs: number[] | null;
  kernelMs: number[];
  kernelNoSimdMs: number[];
  copyMs: number[];
  /** Writing the model's 9 bytes a frame of columns into new memory (freshColumnsMs). */
  freshMs: number[];
  nativeMs: number[] | null;
}

interface SizeConfig {
  payloadSize: number;
  targetBytes: number;
  messagesPerBatch: number;
  runs: number;
  hashOnly: boolean;
  /** The compiled native verifier, when cc and libxxhash are present. */
  native: string | null;
}

// ---------- measuring one size ----------

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function measureSize(cfg: SizeConfig): Promise<SizeResult> {
  const xxh = await loadXxh3();
  const plan = planSegment(cfg.payloadSize, cfg.targetBytes, cfg.messagesPerBatch, DEFAULT_MAX_BATCH_BYTES);
  const t0 = performance.now();
  const segment = buildSegment(xxh, plan);
  const buildMs = performance.now() - t0;

  gc();
  const rssBeforeBytes = process.memoryUsage.rss();
  let peakRssBytes = rssBeforeBytes;
  const sampleRss = (): void => {
    const rss = process.memoryUsage.rss();
    if (rss > peakRssBytes) peakRssBytes = rss;
  };
  let diagnostics = 0;
  const check = (a: Analysis): void => {
    const s = a.summary;
    diagnostics = s.errors + s.warnings + s.infos;
    if (diagnostics !== 0 || s.frames !== plan.frames || s.batches !== plan.batches) {
      const first = a.diagnostics
        .slice(0, 5)
        .map((d) => `  ${d.code}: ${d.message}`)
        .join("\n");
      throw new Error(
        `payload ${cfg.payloadSize} B: expected ${plan.batches} batches, ${plan.frames} frames, 0 diagnostics; ` +
          `analyze() found ${s.batches}, ${s.frames}, ${diagnostics}\n${first}`,
      );
    }
  };
  const analyzeOnce = async (): Promise<number> => {
    gc();
    const start = performance.now();
    const a = await analyze(segment, { onProgress: sampleRss });
    const ms = performance.now() - start;
    sampleRss(); // the finished columns are still alive here
    check(a);
    return ms;
  };
  await analyzeOnce(); // warm-up
  const analyzeMs: number[] = [];
  for (let i = 0; i < cfg.runs; i++) analyzeMs.push(await analyzeOnce());
  const maxRssKiB = process.resourceUsage().maxRSS;

  let hashMs: number[] | null = null;
  if (cfg.hashOnly) {
    // The same windows analyze() hashes (frame bytes 8..end), in one hashWindows call over the whole segment.
    const { starts, ends } = frameWindows(plan);
    const out = new BigUint64Array(plan.frames);
    const hashOnce = (): number => {
      gc();
      const start = performance.now();
      xxh.hashWindows(segment, starts, ends, 0, plan.frames, out);
      return performance.now() - start;
    };
    hashOnce(); // warm-up
    hashMs = [];
    for (let i = 0; i < cfg.runs; i++) hashMs.push(hashOnce());
    const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
    for (let i = 0; i < plan.frames; i++) {
      if (view.getBigUint64((starts[i] as number) - 8, true) !== out[i]) throw new Error(`hash-only: frame ${i} checksum differs from the stored one`);
    }
  }
  // The kernel walk alone, then the native verifier on the same bytes, interleaved run by run.
  const kernelOnce = await kernelWalkMs(segment, plan.frames);
  const noSimdOnce = await kernelWalkMs(segment, plan.frames, noSimdModule());
  const copyOnce = await copyInMs(segment);
  const freshOnce = freshColumnsMs(plan.frames);
  kernelOnce(); // warm-up
  noSimdOnce();
  copyOnce();
  freshOnce();
  const kernelMs: number[] = [];
  const kernelNoSimdMs: number[] = [];
  const copyMs: number[] = [];
  const freshMs: number[] = [];
  let nativeMs: number[] | null = null;
  let file: string | null = null;
  if (cfg.native) {
    const dir = mkdtempSync(join(os.tmpdir(), "iggy-bench-"));
    file = join(dir, "segment.bin");
    writeFileSync(file, segment);
    nativeMs = [];
  }
  try {
    for (let i = 0; i < cfg.runs; i++) {
      kernelMs.push(kernelOnce());
      kernelNoSimdMs.push(noSimdOnce());
      copyMs.push(copyOnce());
      freshMs.push(freshOnce());
      if (cfg.native && file && nativeMs) nativeMs.push((nativeInMemoryNs(cfg.native, file, 2)[1] as number) / 1e6);
    }
  } finally {
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  }
  return {
    payloadSize: cfg.payloadSize,
    messagesPerBatch: plan.messagesPerBatch,
    batches: plan.batches,
    frames: plan.frames,
    bytes: plan.totalBytes,
    buildMs,
    analyzeMs,
    diagnostics,
    rssBeforeBytes,
    peakRssBytes,
    maxRssKiB,
    hashMs,
    kernelMs,
    kernelNoSimdMs,
    copyMs,
    freshMs,
    nativeMs,
  };
}

function measureInChild(cfg: SizeConfig): Promise<SizeResult> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(resolve(ROOT, "bin/run-ts.mjs"), [fileURLToPath(import.meta.url), "--child", JSON.stringify(cfg)], {
      execArgv: [...process.execArgv, "--expose-gc"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let result: SizeResult | null = null;
    child.on("message", (m) => {
      result = m as SizeResult;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (result && code === 0) resolvePromise(result);
      else reject(new Error(`bench child for ${formatSize(cfg.payloadSize)} exited with ${signal ?? `code ${code}`}`));
    });
  });
}

// ---------- output ----------

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|k|kib|kb|m|mib|mb)?$/i.exec(text.trim());
  if (!m) throw new Error(`not a size: ${JSON.stringify(text)}`);
  const unit = (m[2] ?? "b").toLowerCase();
  const n = Math.round(Number(m[1]) * (unit.startsWith("k") ? 1024 : unit.startsWith("m") ? MiB : 1));
  if (!(n >= 1 && n <= 64 * MiB)) throw new Error(`payload size out of range: ${text}`);
  return n;
}

function formatSize(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} B`;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const minOf = (xs: readonly number[]): number => xs.reduce((m, x) => Math.min(m, x), Infinity);
const maxOf = (xs: readonly number[]): number => xs.reduce((m, x) => Math.max(m, x), -Infinity);
const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const fixed = (n: number, digits: number): string => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number): string => `${fixed(bytes / MiB, 0)} MiB`;

const COLUMNS: Array<[string, number]> = [
  ["payload", 8],
  ["msgs/batch", 10],
  ["batches", 8],
  ["frames", 11],
  ["segment", 9],
  ["build ms", 9],
  ["median ms", 10],
  ["min–max ms", 17],
  ["ns/frame", 9],
  ["MB/s", 8],
  ["peak RSS", 10],
  ["maxRSS", 10],
  ["diag", 5],
];
const row = (cells: readonly string[]): string => cells.map((c, i) => c.padStart((COLUMNS[i] as [string, number])[1])).join("  ");

function sizeLine(r: SizeResult): string {
  const med = median(r.analyzeMs);
  return row([
    formatSize(r.payloadSize),
    int(r.messagesPerBatch),
    int(r.batches),
    int(r.frames),
    mib(r.bytes),
    int(r.buildMs),
    fixed(med, 1),
    `${fixed(minOf(r.analyzeMs), 1)}–${fixed(maxOf(r.analyzeMs), 1)}`,
    fixed((med * 1e6) / r.frames, 1),
    fixed(r.bytes / 1e6 / (med / 1e3), 1),
    mib(r.peakRssBytes),
    mib(r.maxRssKiB * 1024),
    String(r.diagnostics),
  ]);
}

function hashLine(r: SizeResult): string | null {
  if (!r.hashMs) return null;
  const hashMed = median(r.hashMs);
  const hashNs = (hashMed * 1e6) / r.frames;
  const analyzeNs = (median(r.analyzeMs) * 1e6) / r.frames;
  const overhead = analyzeNs - hashNs;
  return (
    `${"".padStart(8)}  └ hash only (hashWindows, same ${int(r.frames)} frames): median ${fixed(hashMed, 1)} ms ` +
    `(${fixed(minOf(r.hashMs), 1)}–${fixed(maxOf(r.hashMs), 1)}), ${fixed(hashNs, 1)} ns/frame → ` +
    `decoder overhead ${fixed(overhead, 1)} ns/frame (${fixed((100 * overhead) / analyzeNs, 0)}% of analyze())`
  );
}

function kernelLines(r: SizeResult): string[] {
  const ns = (ms: number[]): number => (median(ms) * 1e6) / r.frames;
  const mbs = (ms: number[]): string => fixed(r.bytes / 1e6 / (median(ms) / 1e3), 0);
  const analyzeNs = ns(r.analyzeMs);
  const kernelNs = ns(r.kernelMs);
  const floorNs = kernelNs + ns(r.copyMs) + ns(r.freshMs);
  const lines = [
    `${"".padStart(8)}  └ kernel walk alone (wasm SIMD, bytes already in its memory, no columns): ${fixed(kernelNs, 1)} ns/frame, ${mbs(r.kernelMs)} MB/s (without SIMD: ${fixed(ns(r.kernelNoSimdMs), 1)} ns/frame)`,
    `${"".padStart(8)}  └ copying the bytes into wasm memory alone (1 MiB windows, as analyze() must for bytes in JS memory): ${fixed(ns(r.copyMs), 1)} ns/frame, ${mbs(r.copyMs)} MB/s; kernel + copy ${fixed(kernelNs + ns(r.copyMs), 1)} ns/frame`,
    `${"".padStart(8)}  └ writing the model's columns (9 B/frame) into new memory alone, after a collection: ${fixed(ns(r.freshMs), 1)} ns/frame; kernel + copy + columns ${fixed(floorNs, 1)} ns/frame (what analyze() on bytes in JS memory cannot go below)`,
  ];
  if (r.nativeMs) {
    const cNs = ns(r.nativeMs);
    lines.push(
      `${"".padStart(8)}  └ native C (verify.c, libxxhash, cc -O2): ${fixed(cNs, 1)} ns/frame, ${mbs(r.nativeMs)} MB/s → ` +
        `analyze() at ${fixed((100 * cNs) / analyzeNs, 0)}% of C (${fixed(analyzeNs / cNs, 2)}x), kernel alone at ${fixed((100 * cNs) / kernelNs, 0)}% of C (target ≥ 50%), ` +
        `kernel + copy at ${fixed((100 * cNs) / (kernelNs + ns(r.copyMs)), 0)}% of C, kernel + copy + columns at ${fixed((100 * cNs) / floorNs, 0)}% of C`,
    );
  }
  return lines;
}

function xxhKind(): string {
  return "src/checksum/kernel/kernel.wasm (xxhash.h 0.8.1, clang -O3 -msimd128), walking whole batches";
}

function header(cfg: { targetBytes: number; messagesPerBatch: number; runs: number; inProcess: boolean }): string {
  const cpus = os.cpus();
  return [
    "iggy batch explorer — analyze() benchmark (scripts/bench.ts)",
    `machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} logical CPUs, ${fixed(os.totalmem() / 2 ** 30, 1)} GiB RAM, ${os.platform()} ${os.arch()} ${os.release()}`,
    `runtime: node ${process.version} (V8 ${process.versions.v8}), XXH3 from our wasm kernel (its build without SIMD where SIMD is missing)`,
    `segment: ${mib(cfg.targetBytes)} per payload size (whole batches only), stamped batches back to back in one partition: ` +
      `${cfg.messagesPerBatch} messages per batch, fewer so a batch stays ≤ ${mib(DEFAULT_MAX_BATCH_BYTES)}; ` +
      "pseudo-random payloads, no user headers; valid frame and batch checksums, continuous offsets (0 diagnostics is asserted)",
    `timing: analyze(segment, { onProgress }) — 1 warm-up, then median of ${cfg.runs}; ` +
      (cfg.inProcess ? "all sizes in this process" : "each size in its own child process (node --expose-gc, gc() before every run)"),
    "columns: MB/s = 10^6 segment bytes per second; ns/frame = median ÷ frames; peak RSS = max of process.memoryUsage.rss() " +
      `sampled at every onProgress (8 MiB) and after each run; maxRSS = process.resourceUsage().maxRSS${cfg.inProcess ? " (cumulative over sizes)" : " of that child (includes building the segment)"}`,
    `kernel: ${xxhKind()}; native C reference: scripts/bench/verify.c compiled now (cc -O2 -lxxhash), timed in memory on the same bytes`,
    "",
    row(COLUMNS.map(([name]) => name)),
  ].join("\n");
}

// ---------- entry ----------

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      mib: { type: "string", default: "256" },
      sizes: { type: "string", default: "16,100,1k,16k,1m" },
      runs: { type: "string", default: "5" },
      "hash-sizes": { type: "string", default: "16,100" },
      "per-batch": { type: "string", default: String(DEFAULT_MESSAGES_PER_BATCH) },
      "in-process": { type: "boolean", default: false },
      "cli-mib": { type: "string", default: "1024" },
      "cli-sizes": { type: "string", default: "100,1k" },
      "baseline-bin": { type: "string" },
      capture: { type: "boolean", default: false },
      "capture-size": { type: "string", default: "1G" },
      child: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.child !== undefined) {
    const result = await measureSize(JSON.parse(values.child) as SizeConfig);
    await new Promise<void>((done, fail) => process.send!(result, (err: Error | null) => (err ? fail(err) : done())));
    process.disconnect?.();
    return 0;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const targetMiB = Number(values.mib);
  const runs = Number(values.runs);
  const messagesPerBatch = Number(values["per-batch"]);
  if (!(targetMiB > 0) || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(messagesPerBatch) || messagesPerBatch < 1) {
    console.error(USAGE);
    return 2;
  }
  const sizes = values.sizes.split(",").filter(Boolean).map(parseSize);
  const hashSizes = new Set(values["hash-sizes"].split(",").filter(Boolean).map(parseSize));
  const targetBytes = Math.round(targetMiB * MiB);
  const inProcess = values["in-process"];
  const native = buildNativeVerifier();

  if (values.capture) {
    if ("missing" in native) console.log(`native C reference: skipped, ${native.missing}`);
    const lines = await captureSection({
      bytes: parseCaptureSize(values["capture-size"]),
      runs: Math.min(runs, 3),
      native: "path" in native ? native.path : null,
      baselineBin: values["baseline-bin"] ?? null,
    });
    for (const line of lines) console.log(line);
    return 0;
  }
  console.log(header({ targetBytes, messagesPerBatch, runs, inProcess }));
  if ("missing" in native) console.log(`native C reference: skipped, ${native.missing}`);
  for (const payloadSize of sizes) {
    const cfg: SizeConfig = {
      payloadSize,
      targetBytes,
      messagesPerBatch,
      runs,
      hashOnly: hashSizes.has(payloadSize),
      native: "path" in native ? native.path : null,
    };
    const r = inProcess ? await measureSize(cfg) : await measureInChild(cfg);
    console.log(sizeLine(r));
    const h = hashLine(r);
    if (h) console.log(h);
    for (const line of kernelLines(r)) console.log(line);
  }
  if (values["cli-mib"] !== "0") {
    for (const line of await cliSection({
      mib: Number(values["cli-mib"]),
      sizes: values["cli-sizes"].split(",").filter(Boolean).map(parseSize),
      runs: Math.min(runs, 3),
      native: native && "path" in native ? native.path : null,
      baselineBin: values["baseline-bin"] ?? null,
    }))
      console.log(line);
  }
  const xxh = await loadXxh3();
  for (const payloadSize of [16, 1024]) {
    const e = measureRecheck(xxh, payloadSize);
    console.log(
      `edit re-check: 1 MiB batch (${e.frames.toLocaleString("en-US")} frames of ${formatSize(payloadSize)}): copy + one byte + analyze() median ${e.medianMs.toFixed(1)} ms, max ${e.maxMs.toFixed(1)} ms (issue #4 asks < 50 ms)`,
    );
  }
  console.log(measureEditOverlay());
  return 0;
}

process.exitCode = await main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  return 1;
});
