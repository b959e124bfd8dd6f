/**
 * The CLI's streaming and all-cores paths on real files: a pool of 1, 2 and 3 worker threads and
 * the single-thread file stream give analyze()'s Analysis (without frame columns) for a segment of
 * many batches, two partitions and planted faults; and `inspect` prints the same text and JSON
 * whether the file streams (1 or 2 threads) or arrives on stdin.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeSource } from "../src/core/walk/stream-analyze.ts";
import { encodeBatch, stampBatch, concat } from "../src/core/walk/encode.ts";
import { loadHashWasmXxh3, referenceAnalyze } from "../test/reference-walk.ts";
import { createWasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import type { Analysis } from "../src/core/model/model.ts";
import { analyzeFileInPool, fileSource, RangePool } from "./range-pool.ts";
import { JoinedRanges, RangeCutter } from "../src/core/walk/range-cuts.ts";
import type { RangePlan } from "../src/core/walk/stream-analyze.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const reference = await loadHashWasmXxh3();
const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-pool-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** 60 stamped batches over two partitions, with a bad frame, a gap in offsets and a cut tail. */
function segment(): Uint8Array {
  const batches: Uint8Array[] = [];
  const next = [0n, 0n];
  for (let b = 0; b < 60; b++) {
    const p = b % 2;
    const messages = Array.from({ length: 1 + (b % 7) }, (_, k) => ({ payload: `p${p} b${b} m${k} `.repeat(1 + (b % 5)), timestampDelta: k }));
    const batch = stampBatch(reference, encodeBatch(reference, { originTimestamp: 1n, messages }), {
      partitionId: BigInt(p),
      baseOffset: next[p]! + (b === 41 ? 3n : 0n),
      baseTimestamp: 1_000_000n + BigInt(b),
    });
    next[p]! += BigInt(messages.length) + (b === 41 ? 3n : 0n);
    if (b === 17) batch[256 + 60]! ^= 0xff; // a payload byte: frame checksum
    batches.push(batch);
  }
  const all = concat(batches);
  return all.subarray(0, all.length - 30);
}

const bytes = segment();
const FILE = join(tmp, "segment.bin");
writeFileSync(FILE, bytes);
const withoutFrames = ({ frames: _f, ...rest }: Analysis): Omit<Analysis, "frames"> => rest;
const want = withoutFrames(referenceAnalyze(bytes));

describe("all cores", () => {
  it("the planted faults are there to be found", () => {
    expect(new Set(want.diagnostics.map((d) => d.code))).toEqual(
      new Set(["frame-checksum-mismatch", "batch-checksum-mismatch", "offset-discontinuity", "batch-truncated", "frame-truncated", "message-count-mismatch"]),
    );
  });

  for (const threads of [1, 2, 3]) {
    it(`a pool of ${threads} worker thread${threads > 1 ? "s" : ""} gives analyze()'s result`, async () => {
      const got = await analyzeFileInPool(FILE, { threads, startOffset: 0, keepFrames: false, maxDiagnostics: 200_000 });
      expect(withoutFrames(got)).toEqual(want);
    });
  }

  it("ranges cut by the lazy header walk start at analyze()'s batch starts, cover the file in order, and know whether it tiles", () => {
    const fd = openSync(FILE, "r");
    try {
      const cutter = new RangeCutter(fileSource(fd), 0, 1500);
      const ranges: RangePlan[] = [];
      for (let r = cutter.next(); r; r = cutter.next()) ranges.push(r);
      expect(ranges.length).toBeGreaterThan(5);
      expect(ranges[0]!.start).toBe(0);
      expect(ranges.at(-1)!.end).toBe(bytes.length);
      for (const [i, r] of ranges.entries()) {
        if (i > 0) expect(r.start).toBe(ranges[i - 1]!.end);
        expect(want.batches.start(r.firstBatch)).toBe(r.start);
      }
      // The last batch is cut short: the walk cannot step past it, so the headers do not tile the file.
      expect(cutter.tiles).toBe(false);
      expect(cutter.batches).toBe(want.batches.length - 1);
      const joined = new JoinedRanges(ranges, 5000);
      const fewer: RangePlan[] = [];
      for (let r = joined.next(); r; r = joined.next()) fewer.push(r);
      expect(fewer.length).toBeLessThan(ranges.length);
      expect(fewer.map((r) => r.start)).toEqual(ranges.filter((r) => fewer.some((f) => f.start === r.start)).map((r) => r.start));
      expect(fewer.at(-1)!.end).toBe(bytes.length);
    } finally {
      closeSync(fd);
    }
  });

  for (const threads of [1, 2, 3]) {
    it(`${threads} thread${threads > 1 ? "s" : ""} with the calling one walking too, over many small ranges, give analyze()'s result`, async () => {
      const kernel = await createWasmKernel();
      const got = await analyzeFileInPool(FILE, { threads, startOffset: 0, keepFrames: false, maxDiagnostics: 200_000, rangeBytes: 1200 }, kernel);
      expect(withoutFrames(got)).toEqual(want);
    });
  }

  it("many small ranges, from the pool's walk or from ranges a header walk recorded, give analyze()'s result (capped, with frames, dropped codes)", async () => {
    const fd = openSync(FILE, "r");
    const recorded: RangePlan[] = [];
    try {
      const cutter = new RangeCutter(fileSource(fd), 0, 700);
      for (let r = cutter.next(); r; r = cutter.next()) recorded.push(r);
    } finally {
      closeSync(fd);
    }
    const kernel = await createWasmKernel();
    const capped = referenceAnalyze(bytes, { maxDiagnostics: 2 });
    const dropped = withoutFrames(referenceAnalyze(bytes, { dropFinding: (code) => code === "offset-discontinuity" }));
    for (const ranges of [undefined, recorded]) {
      const small = { startOffset: 0, rangeBytes: 2500, ranges };
      expect(await analyzeFileInPool(FILE, { ...small, threads: 2, keepFrames: true, maxDiagnostics: 2 })).toEqual(capped);
      expect(await analyzeFileInPool(FILE, { ...small, threads: 3, keepFrames: true, maxDiagnostics: 2 }, kernel)).toEqual(capped);
      const got = await analyzeFileInPool(
        FILE,
        { ...small, threads: 2, keepFrames: false, maxDiagnostics: 200_000, dropCodes: ["offset-discontinuity"] },
        kernel,
      );
      expect(withoutFrames(got)).toEqual(dropped);
    }
  });

  it("workers already up and the calling thread share many small ranges and give analyze()'s result", async () => {
    const pool = new RangePool(2);
    try {
      await pool.ready(); // so workers take ranges from the first, between the calling thread's ranges
      const kernel = await createWasmKernel();
      for (const rangeBytes of [300, 1000, 4000]) {
        const got = await pool.analyzeFile(FILE, { startOffset: 0, keepFrames: false, maxDiagnostics: 200_000, rangeBytes }, kernel);
        expect(withoutFrames(got), `${rangeBytes} B ranges`).toEqual(want);
      }
    } finally {
      await pool.close();
    }
  });

  it("workers apply a container's dropped codes (a segment's offset-discontinuity), inside ranges and at their borders", async () => {
    const dropped = withoutFrames(referenceAnalyze(bytes, { dropFinding: (code) => code === "offset-discontinuity" }));
    expect(dropped.diagnostics.length).toBe(want.diagnostics.length - 1);
    for (const threads of [2, 3]) {
      const got = await analyzeFileInPool(FILE, { threads, startOffset: 0, keepFrames: false, maxDiagnostics: 200_000, dropCodes: ["offset-discontinuity"] });
      expect(withoutFrames(got), `${threads} threads`).toEqual(dropped);
    }
  });

  it("a pool that stays up answers job after job (what a page's Web Workers would do)", async () => {
    const pool = new RangePool(2);
    try {
      await pool.ready();
      for (let k = 0; k < 2; k++)
        expect(withoutFrames(await pool.analyzeFile(FILE, { startOffset: 0, keepFrames: false, maxDiagnostics: 200_000 }))).toEqual(want);
    } finally {
      await pool.close();
    }
  });

  it("keeps the first diagnostics analyze() keeps when capped, and merges frame columns", async () => {
    const capped = referenceAnalyze(bytes, { maxDiagnostics: 2 });
    expect(await analyzeFileInPool(FILE, { threads: 2, startOffset: 0, keepFrames: true, maxDiagnostics: 2 })).toEqual(capped);
  });

  it("the single-thread file stream gives analyze()'s result", async () => {
    const fd = openSync(FILE, "r");
    try {
      expect(withoutFrames(analyzeSource(await createWasmKernel(), fileSource(fd), { keepFrames: false, windowBytes: 4096 }))).toEqual(want);
    } finally {
      closeSync(fd);
    }
  });

  it("inspect prints the same text and JSON streamed (1 or 2 threads) as from stdin", () => {
    const run = (args: string[], threads: string, input?: Uint8Array) => {
      const r = spawnSync(process.execPath, [join(ROOT, "bin/iggy-batch.mjs"), "inspect", ...args], {
        input,
        encoding: "utf8",
        env: { ...process.env, IGGY_BATCH_THREADS: threads },
      });
      return { status: r.status, stdout: r.stdout.replaceAll(`"name":"-"`, `"name":"segment.bin"`).replace(/^-: /m, "segment.bin: ") };
    };
    // Forced to batches: a file this small streams only when forced (auto reads small files whole to try every container).
    for (const args of [
      ["--format", "batches"],
      ["--format", "batches", "--json", "--no-frames"],
    ]) {
      const piped = run(["-", ...args], "1", bytes);
      expect(piped.status).toBe(1);
      expect(run([FILE, ...args], "1")).toEqual(piped);
      expect(run([FILE, ...args], "2")).toEqual(piped);
    }
  });
});
