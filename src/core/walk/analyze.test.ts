/** analyze()'s options and calling conventions: kernel injection, diagnostic cap, progress, views into larger buffers. */
import { describe, expect, it, vi } from "vitest";
import { analyze, analyzeWith } from "./analyze.ts";
import { compileKernel, createWasmKernel } from "../../checksum/kernel/wasm-kernel.ts";
import {
  concat,
  F,
  FRAME_HEADER,
  findings,
  frameStartsOf,
  HEADER,
  producerBatch,
  refreshBatchChecksum,
  refreshFrameChecksum,
  stampedBatch,
  xxh,
} from "../../../test/helpers.ts";

const segment = concat([
  stampedBatch(3, { partitionId: 1n, baseOffset: 0n, baseTimestamp: 10n }),
  stampedBatch(2, { partitionId: 1n, baseOffset: 3n, baseTimestamp: 20n }),
  stampedBatch(4, { partitionId: 1n, baseOffset: 5n, baseTimestamp: 30n }),
]);

describe("analyze options", () => {
  it("walks with an injected kernel (here the build without SIMD) and finds what the shared one finds", async () => {
    const own = await createWasmKernel(await compileKernel(false));
    const walk = vi.spyOn(own, "walk");
    const input = producerBatch(2);
    input[HEADER + FRAME_HEADER + 2]! ^= 1; // a payload byte of frame 0
    const r = await analyze(input, { xxh3: own });
    expect(walk).toHaveBeenCalled();
    expect(findings(r).map((d) => `${d.code} ${d.frame}`)).toEqual(["frame-checksum-mismatch 0"]);
    expect(r).toEqual(await analyze(input));
  });

  it("keeps at most maxDiagnostics and counts the rest", async () => {
    const b = producerBatch(4);
    for (const s of [256, 313, 370, 427]) b[s]! ^= 1; // four frame checksum mismatches
    const r = await analyze(b, { maxDiagnostics: 3 });
    expect(r.diagnostics).toHaveLength(3);
    expect(r.diagnosticsOmitted).toBe(2); // four frames + the batch checksum
    expect(r.summary.errors).toBe(5);
  });

  it("past the cap keeps every batch-level finding, even one found after many frame findings", () => {
    const bad = producerBatch(6);
    for (const s of frameStartsOf(bad)) bad[s]! ^= 1; // six frame checksum mismatches, then the batch checksum
    refreshBatchChecksum(bad);
    const input = concat([bad, new Uint8Array(100)]); // and a torn header after them
    const r = analyzeWith(xxh, input, { maxDiagnostics: 3 });
    expect(findings(r).map((d) => d.code)).toEqual(["frame-checksum-mismatch", "frame-checksum-mismatch", "header-truncated"]);
    expect(r.diagnostics[0]!.start).toBe(HEADER);
    expect(r.diagnosticsOmitted).toBe(4);
    expect(r.summary.errors).toBe(7);
  });

  it("past the cap keeps the first findings by position, not the first emitted", () => {
    // Frame 1's reserved bytes are found while walking, frame 0's offset_delta only after the walk.
    const b = producerBatch(2, { messages: [{ payload: "a", offsetDelta: 7 }, { payload: "b" }] });
    const [first, second] = frameStartsOf(b) as [number, number];
    b[second + F.reserved] = 1;
    refreshFrameChecksum(b, second);
    refreshBatchChecksum(b);
    expect(findings(analyzeWith(xxh, b)).map((d) => d.code)).toEqual(["offset-delta-not-index", "frame-reserved-nonzero"]);
    const r = analyzeWith(xxh, b, { maxDiagnostics: 1 });
    expect(findings(r)).toMatchObject([{ code: "offset-delta-not-index", start: first + F.offsetDelta }]);
    expect(r.diagnosticsOmitted).toBe(1);
    expect(first).toBe(HEADER);
    expect(second).toBe(HEADER + FRAME_HEADER + 1);
  });

  it("reports progress in bytes, ending with the whole input", () => {
    const calls: Array<[number, number]> = [];
    analyzeWith(xxh, segment, { progressEveryBytes: 100, onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([segment.length, segment.length]);
    for (let i = 1; i < calls.length; i++) expect(calls[i]![0]).toBeGreaterThanOrEqual(calls[i - 1]![0]);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every(([, total]) => total === segment.length)).toBe(true);
  });

  it("gives the same analysis for a view into a larger buffer (byteOffset ≠ 0) as for a copy", async () => {
    const big = new Uint8Array(segment.length + 13).fill(0xee);
    big.set(segment, 5);
    const view = big.subarray(5, 5 + segment.length);
    const a = await analyze(segment);
    const b = await analyze(view);
    expect(b.diagnostics).toEqual(a.diagnostics);
    expect(b.batches).toEqual(a.batches);
    expect(b.frames).toEqual(a.frames);
    expect(a.diagnostics).toEqual([]);
  });
});
