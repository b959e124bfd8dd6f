/**
 * The streamed walk with range workers: each stand-in worker walks its jobs through range.worker.ts's
 * protocol functions and its own kernel, answering after a random wait, so parts come back out of order;
 * their frames must still land in input order, and the Analysis equal analyze()'s.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { referenceAnalyze } from "../../test/reference-walk.ts";
import { createWasmKernel, type WasmKernel } from "../checksum/kernel/wasm-kernel.ts";
import { failedReply, walkRangeJob, type RangeWorkerMessage, type RangeWorkerReply } from "../core/walk/range-protocol.ts";
import { MEMORY_WINDOW_BYTES, memorySource } from "../core/walk/stream-analyze.ts";
import { kernel, randomSegment, SAMPLE_BYTES } from "../core/walk/walk-compare.test-util.ts";
import { releasableBuffer } from "../lib/release-buffer.ts";
import { analyzeStreamed } from "./range-workers.ts";
import { rangeSource } from "./stream-ranges.ts";

let seed = 1;
const random = (n: number): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};

// A Web Worker running range.worker.ts in this thread: the same walk and reply, later and in any order.
class StandInRangeWorker {
  onmessage: ((event: { data: RangeWorkerReply }) => void) | null = null;
  onerror: unknown = null;
  private kernel: Promise<WasmKernel> | null = null;

  postMessage(m: RangeWorkerMessage): void {
    if (m.type === "init") {
      this.kernel = createWasmKernel(m.kernelModule);
      void this.kernel.then(() => this.reply({ type: "ready" }));
      return;
    }
    if (m.type === "discard" || !this.kernel) return;
    void this.kernel.then(async (k) => {
      await new Promise((resolve) => setTimeout(resolve, random(4)));
      try {
        const source = rangeSource(m.plan.start, m.bytes as Uint8Array, m.settings.size, null);
        this.reply(walkRangeJob(k, source, m, { pack: releasableBuffer, windowBytes: MEMORY_WINDOW_BYTES }).reply);
      } catch (err) {
        this.reply(failedReply(m.id, err));
      }
    });
  }

  terminate(): void {}

  private reply(data: RangeWorkerReply): void {
    this.onmessage?.({ data });
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("analyzeStreamed on range workers", () => {
  it("equals analyze() whatever order the parts come back in", async () => {
    vi.stubGlobal("Worker", StandInRangeWorker);
    const inputs = [...SAMPLE_BYTES, ...Array.from({ length: 12 }, () => randomSegment(random))];
    for (const [i, bytes] of inputs.entries()) {
      const want = referenceAnalyze(bytes);
      for (const streams of [1, 3]) {
        const got = await analyzeStreamed({
          file: new Blob([bytes as Uint8Array<ArrayBuffer>]),
          streams,
          source: memorySource(bytes),
          kernel,
          workers: 2,
          walkHere: i % 2 === 0,
          chunkBytes: 700,
          maxDiagnostics: 200_000,
          dropCodes: [],
        });
        expect(got, `input ${i}, ${streams} streams`).toEqual(want);
      }
    }
  });
});
