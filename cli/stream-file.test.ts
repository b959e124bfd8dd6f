/**
 * Files streamed one after another share one kernel instance (issue 22, item 7: `inspect DIR` of 5,000 segments made
 * 5,000 wasm instances, each with its own memory, and grew faster than the segment count). The results are those of
 * a fresh kernel per file: each segment's analysis equals the whole-file decode.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { encodeBatch, stampBatch } from "../src/core/walk/encode.ts";
import { IndexEntries } from "../src/core/containers/index.ts";
import { openSegment } from "../src/core/containers/segment.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { streamSegment } from "./stream-containers.ts";
import type * as WasmKernelModule from "../src/checksum/kernel/wasm-kernel.ts";

const made = vi.hoisted(() => ({ kernels: 0 }));
vi.mock("../src/checksum/kernel/wasm-kernel.ts", async (importOriginal) => {
  const real = await importOriginal<typeof WasmKernelModule>();
  return {
    ...real,
    createWasmKernel: (module?: WebAssembly.Module) => {
      made.kernels++;
      return real.createWasmKernel(module);
    },
  };
});

const xxh = await loadXxh3();
const dir = mkdtempSync(join(tmpdir(), "iggy-batch-kernel-reuse-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("streaming many small segments", () => {
  it("makes one kernel for all of them, with the whole-file decode's results", async () => {
    const batch = encodeBatch(xxh, { originTimestamp: 1n, messages: [{ payload: "hello" }, { payload: "world" }] });
    const before = made.kernels;
    for (let i = 0; i < 40; i++) {
      // Every fifth segment has a bad batch checksum, so a kernel left in a wrong state would show.
      const bytes = stampBatch(xxh, batch, { partitionId: 1n, baseOffset: BigInt(2 * i), baseTimestamp: 1_700_000_000_000_000n + BigInt(i) });
      if (i % 5 === 0) bytes[40] = (bytes[40] as number) ^ 0xff;
      const name = `${String(2 * i).padStart(20, "0")}.log`;
      writeFileSync(join(dir, name), bytes);
      const got = await streamSegment(join(dir, name), name, IndexEntries.EMPTY);
      if (got === null || typeof got === "string") throw new Error(`not streamed: ${String(got)}`);
      const whole = openSegment(xxh, bytes, name);
      expect(got.analysis.diagnostics).toEqual(whole.analysis.diagnostics);
      expect(got.analysis.summary).toEqual(whole.analysis.summary);
      expect(got.recovery).toEqual(whole.recovery);
    }
    expect(made.kernels - before).toBeLessThanOrEqual(1);
  });
});
