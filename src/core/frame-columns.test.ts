import { releasableBuffer, releaseBuffer } from "../lib/release-buffer.ts";
import { describe, expect, it } from "vitest";
import { analyze, analyzeWith } from "./analyze.ts";
import { loadXxh3 } from "../checksum/xxh3.ts";
import { SAMPLES } from "./samples.ts";
import {
  concatFrameColumns,
  packFrameColumns,
  frameBatch,
  frameColumnBuffers,
  frameComputedChecksum,
  frameEnd,
  frameIndexInBatch,
  frameStoredChecksum,
} from "./frame-columns.ts";
import { FRAME_COLUMNS } from "./model.ts";
import { producerBatch } from "../../test/helpers.ts";

const BYTES: Record<string, number> = { f64: 8, u64: 8, u32: 4, u16: 2, u8: 1 };

describe("frame columns", () => {
  it("keep at most 24 bytes a frame (issue #9)", () => {
    const perFrame = Object.values(FRAME_COLUMNS).reduce((n, t) => n + (BYTES[t] as number), 0);
    expect(perFrame).toBeLessThanOrEqual(24);
  });

  it("derive end, batch and index, and keep the computed checksum only of a mismatched frame", async () => {
    const two = producerBatch(2);
    const input = new Uint8Array(two.length * 2);
    input.set(two);
    input.set(two, two.length);
    const at = two.length + 256 + 48; // first payload byte of batch 1's frame 0
    input[at]! ^= 1;
    const a = await analyze(input);
    expect(a.frames.count).toBe(4);
    expect([0, 1, 2, 3].map((i) => frameBatch(a.batches, i))).toEqual([0, 0, 1, 1]);
    expect([0, 1, 2, 3].map((i) => frameIndexInBatch(a.batches, i))).toEqual([0, 1, 0, 1]);
    expect(frameEnd(a.frames, 1)).toBe(a.frames.start[2]! - 256);
    expect([...a.frames.mismatchFrames]).toEqual([2]);
    expect(frameComputedChecksum(a.frames, input, 2)).not.toBe(frameStoredChecksum(a.frames, input, 2));
    expect(frameComputedChecksum(a.frames, input, 3)).toBe(frameStoredChecksum(a.frames, input, 3));
    expect(a.diagnostics.filter((d) => d.code === "frame-checksum-mismatch").map((d) => d.message)).toEqual([
      expect.stringContaining(frameComputedChecksum(a.frames, input, 2).toString(16)),
    ]);
    expect(new Set(frameColumnBuffers(a.frames)).size).toBe(frameColumnBuffers(a.frames).length);
  });
});

describe("concatFrameColumns with release", () => {
  it("joins as without it and frees each part's buffers (where ArrayBuffer.transfer exists)", async () => {
    const xxh = await loadXxh3();
    const parts = () => SAMPLES.map((s) => analyzeWith(xxh, s.build(xxh)).frames).filter((f) => f.count > 0);
    const want = concatFrameColumns(parts());
    const proto = ArrayBuffer.prototype as ArrayBuffer & { transfer?: (n: number) => ArrayBuffer };
    const had = proto.transfer;
    // Node 20 has no ArrayBuffer.transfer: structuredClone with a transfer list detaches the same way.
    proto.transfer ??= function (this: ArrayBuffer, n: number) {
      return structuredClone(this, { transfer: [this] }).slice(0, n);
    };
    try {
      const given = parts();
      expect(concatFrameColumns(given, releaseBuffer)).toEqual(want);
      for (const f of given) expect(f.start.buffer.byteLength, "a part's buffer is freed").toBe(0);
    } finally {
      if (!had) delete proto.transfer;
    }
  });
});

describe("packFrameColumns", () => {
  it("copies every column into one releasable buffer, which releaseBuffer frees", async () => {
    const xxh = await loadXxh3();
    for (const s of SAMPLES) {
      const frames = analyzeWith(xxh, s.build(xxh)).frames;
      const packed = packFrameColumns(frames, releasableBuffer);
      expect(packed, s.id).toEqual(frames);
      const columns = new Set([packed.start, packed.payloadLength, packed.userHeadersLength, packed.offsetDelta, packed.flags].map((c) => c.buffer));
      expect(columns.size, `${s.id}: one buffer`).toBe(1);
      const [buffer] = columns;
      releaseBuffer(buffer!);
      expect(buffer!.byteLength, `${s.id}: freed`).toBe(0);
    }
  });
});
