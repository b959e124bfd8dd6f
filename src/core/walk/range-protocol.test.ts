// The range pools' one protocol, without a thread: a job walked by walkRangeJob and settled by RangeJobs gives
// what walkRange gives over the same bytes, packed or not; failures reach the right job, a shrunk input as InputShrank.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createWasmKernel } from "../../checksum/kernel/wasm-kernel.ts";
import { releasableBuffer } from "../../lib/release-buffer.ts";
import { failedReply, RangeJobs, walkRangeJob, type RangeWalkSettings, type RangeWorkerJob, type RangeWorkerReply } from "./range-protocol.ts";
import { InputShrank, memorySource, walkRange } from "./range-walk.ts";

const SEGMENT = new Uint8Array(readFileSync(new URL("../../../test/fixtures/corpus/04-segment-5-stamped.bin", import.meta.url)));

describe("the range pools' protocol", () => {
  it.each([
    ["as walked", {}],
    ["packed into releasable buffers, one window in memory", { pack: releasableBuffer, windowBytes: 1 << 20 }],
  ])("a job %s settles to walkRange's result over the same bytes", async (_, host) => {
    const kernel = await createWasmKernel();
    const settings: RangeWalkSettings = { size: SEGMENT.length, keepFrames: true, maxDiagnostics: 100, dropCodes: [] };
    const plan = { start: 0, end: SEGMENT.length, firstBatch: 0 };
    const expected = walkRange(kernel, memorySource(SEGMENT), { ...plan, keepFrames: true, maxDiagnostics: 100 });
    const jobs = new RangeJobs();
    let sent: RangeWorkerJob | null = null;
    const answer = jobs.start(plan, settings, { bytes: SEGMENT.slice() }, (job) => (sent = job));
    expect(jobs.inFlight).toBe(1);
    const { reply, transfer } = walkRangeJob(kernel, memorySource(SEGMENT), sent!, host);
    expect(transfer.length).toBeGreaterThan(0);
    const spares: ArrayBuffer[] = [];
    expect(jobs.settle(reply, (b) => spares.push(b))).toBe(false);
    const got = await answer;
    expect(spares).toHaveLength(1);
    expect(got.batches.length).toBe(expected.batches.length);
    expect([...got.batches]).toEqual([...expected.batches]);
    expect(got.diagnostics).toEqual(expected.diagnostics);
    expect(got.frameCount).toBe(expected.frameCount);
    expect(jobs.inFlight).toBe(0);
  });

  it("a failed job rejects only itself; a shrunk input arrives as InputShrank; a worker that fails fails every job after", async () => {
    const jobs = new RangeJobs();
    const settings: RangeWalkSettings = { size: 10, keepFrames: false, maxDiagnostics: 1, dropCodes: [] };
    const ids: number[] = [];
    const first = jobs.start({ start: 0, end: 5, firstBatch: 0 }, settings, { path: "x" }, (j) => ids.push(j.id));
    const second = jobs.start({ start: 5, end: 10, firstBatch: 1 }, settings, { path: "x" }, (j) => ids.push(j.id));
    jobs.settle(failedReply(ids[1]!, new InputShrank("x got shorter")));
    await expect(second).rejects.toBeInstanceOf(InputShrank);
    expect(jobs.inFlight).toBe(1);
    const ready: RangeWorkerReply = { type: "ready" };
    expect(jobs.settle(ready)).toBe(true);
    jobs.settle(failedReply(null, new Error("no kernel")));
    await expect(first).rejects.toThrow("no kernel");
    expect(jobs.failed).toBe(true);
    await expect(jobs.start({ start: 0, end: 5, firstBatch: 0 }, settings, {}, () => undefined)).rejects.toThrow("no kernel");
  });
});
