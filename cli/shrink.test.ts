/**
 * A file truncated while the CLI streams it (issue 22, item 6): the read that finds the file shorter
 * than it was measured throws InputShrank, on the calling thread and in worker threads alike, and the
 * command says so with exit 2 (contracts.md: an I/O problem), never "kernel walked no batch" or an
 * unhandled rejection. The file is cut between two reads, deterministically: no timing.
 */
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeSource } from "../src/core/walk/stream-analyze.ts";
import { InputShrank, type ByteSource } from "../src/core/walk/range-walk.ts";
import { RangeCutter } from "../src/core/walk/range-cuts.ts";
import type { RangePlan } from "../src/core/walk/stream-analyze.ts";
import { encodeBatch, concat } from "../src/core/walk/encode.ts";
import { loadHashWasmXxh3 } from "../test/reference-walk.ts";
import { createWasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import { fileSource } from "./file-source.ts";
import { RangePool } from "./range-pool.ts";

const reference = await loadHashWasmXxh3();
const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-shrink-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** About 1.5 MiB of producer batches, 64 KiB windows apart many times over. */
function batches(): Uint8Array {
  const out: Uint8Array[] = [];
  for (let b = 0; b < 300; b++)
    out.push(encodeBatch(reference, { originTimestamp: 1n, messages: Array.from({ length: 4 }, (_, k) => ({ payload: `b${b} m${k} `.repeat(120) })) }));
  return concat(out);
}

const bytes = batches();

function freshFile(name: string): string {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
}

describe("a file truncated while it is streamed", () => {
  it("on the calling thread: the read after the cut throws InputShrank with both sizes", async () => {
    const path = freshFile("one-thread.bin");
    const fd = openSync(path, "r");
    try {
      const inner = fileSource(fd);
      let reads = 0;
      // Cut the file to a third right after the first read: the next read finds it short.
      const source: ByteSource = {
        size: inner.size,
        read(into, position) {
          const n = inner.read(into, position);
          if (++reads === 1) truncateSync(path, Math.floor(bytes.length / 3));
          return n;
        },
      };
      const kernel = await createWasmKernel();
      let caught: unknown;
      try {
        analyzeSource(kernel, source, { keepFrames: false, windowBytes: 64 << 10 });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(InputShrank);
      expect((caught as Error).message).toMatch(new RegExp(`had ${bytes.length} bytes`));
      expect(reads).toBeGreaterThan(1);
    } finally {
      closeSync(fd);
    }
  });

  it("over worker threads and the calling thread: the pool rejects with InputShrank, no unhandled rejection", async () => {
    const path = freshFile("pool.bin");
    // Ranges cut from the whole file, then the file cut to a quarter before the threads read it.
    const fd = openSync(path, "r");
    const ranges: RangePlan[] = [];
    try {
      const cutter = new RangeCutter(fileSource(fd), 0, 100_000);
      for (let r = cutter.next(); r; r = cutter.next()) ranges.push(r);
    } finally {
      closeSync(fd);
    }
    expect(ranges.length).toBeGreaterThan(4);
    truncateSync(path, Math.floor(bytes.length / 4));
    const pool = new RangePool(2);
    try {
      const kernel = await createWasmKernel();
      await expect(
        pool.analyzeFile(path, { startOffset: 0, keepFrames: false, maxDiagnostics: 200_000, ranges, rangeBytes: 100_000 }, kernel),
      ).rejects.toBeInstanceOf(InputShrank);
      // Workers alone (the calling thread walks nothing) fail the same way.
      truncateSync(path, Math.floor(bytes.length / 5));
      await expect(pool.analyzeFile(path, { startOffset: 0, keepFrames: false, maxDiagnostics: 200_000, ranges, rangeBytes: 100_000 })).rejects.toBeInstanceOf(
        InputShrank,
      );
    } finally {
      await pool.close();
    }
  });
});
