import { releasableBuffer, releaseBuffer } from "../../lib/release-buffer.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyze, analyzeWith } from "../walk/analyze.ts";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { SAMPLES } from "../samples/samples.ts";
import {
  frameBatch,
  frameComputedChecksum,
  frameEnd,
  frameIndexInBatch,
  frameOffsetDelta,
  frameStoredChecksum,
  frameUserHeadersLength,
} from "./frame-columns.ts";
import { concatFrameColumns, frameColumnBuffers, KeptColumnsBuilder } from "./frame-columns-build.ts";
import { encodeBatch, stampBatch } from "../walk/encode.ts";
import { FRAME_COLUMNS, widePositions, type FrameColumns } from "./model.ts";
import { concat, F, getU32, producerBatch } from "../../../test/helpers.ts";
import { expectSameEverywhere, kernel } from "../walk/walk-compare.test-util.ts";
import { walkRange } from "../walk/range-walk.ts";
import { memorySource } from "../walk/stream-analyze.ts";

const COLUMN_NAMES = Object.keys(FRAME_COLUMNS) as (keyof typeof FRAME_COLUMNS)[];
const bytesPerFrame = (frames: FrameColumns): number => COLUMN_NAMES.reduce((n, name) => n + frames[name].BYTES_PER_ELEMENT, 0);

describe("frame columns", () => {
  it("keep 9 bytes a frame below 4 GiB and 13 past it (issue #9 asks 24 or less)", async () => {
    const a = await analyze(producerBatch(3));
    expect(bytesPerFrame(a.frames)).toBe(9);
    expect(bytesPerFrame(new KeptColumnsBuilder(4, true).finish())).toBe(13);
    expect([widePositions(2 ** 32), widePositions(2 ** 32 + 1)]).toEqual([false, true]);
  });

  it("walk frames that lie past 4 GiB at their places (f64 starts, the kernel's relative ones added to)", async () => {
    const xxh = await loadXxh3();
    const bytes = concat([producerBatch(3), producerBatch(2), producerBatch(4)]);
    const want = analyzeWith(xxh, bytes);
    // Only [at, at + bytes.length) exists: the second batch crosses the 4 GiB line.
    const at = 2 ** 32 - (want.batches.start(1) + 100);
    const source = { size: at + bytes.length, read: (into: Uint8Array, position: number) => memorySource(bytes).read(into, position - at) };
    const got = walkRange(kernel, source, { start: at, end: source.size, firstBatch: 0, keepFrames: true, maxDiagnostics: 100, windowBytes: 300 }).frames!;
    expect(got.start).toBeInstanceOf(Float64Array);
    expect([...got.start]).toEqual([...want.frames.start].map((s) => s + at));
    expect(Array.from({ length: got.count }, (_, i) => frameEnd(got, i) - at)).toEqual(
      Array.from({ length: want.frames.count }, (_, i) => frameEnd(want.frames, i)),
    );
    expect(Array.from({ length: got.count }, (_, i) => frameOffsetDelta(got, i))).toEqual(
      Array.from({ length: want.frames.count }, (_, i) => frameOffsetDelta(want.frames, i)),
    );
  });

  it("join parts below and past 4 GiB into f64 positions with the same values", () => {
    const part = (wide: boolean, start: number): FrameColumns => {
      const b = new KeptColumnsBuilder(4, wide);
      for (let k = 0; k < 2; k++) {
        const i = b.next();
        b.start[i] = start + k * 60;
        b.payloadLength[i] = 12;
      }
      b.noteOffsetDelta(0, 0);
      b.noteOffsetDelta(1, 1);
      b.addLast(1, 7);
      return b.finish();
    };
    const joined = concatFrameColumns([part(false, 2 ** 32 - 1000), part(true, 2 ** 32 + 500)]);
    expect(joined.start).toBeInstanceOf(Float64Array);
    expect([...joined.start]).toEqual([2 ** 32 - 1000, 2 ** 32 - 940, 2 ** 32 + 500, 2 ** 32 + 560]);
    expect([...joined.lastFrames]).toEqual([1, 3]);
    expect([0, 1, 2, 3].map((i) => frameEnd(joined, i))).toEqual([2 ** 32 - 940, 2 ** 32 - 1000 + 60 + 48 + 12 + 7, 2 ** 32 + 560, 2 ** 32 + 560 + 67]);
    expect(concatFrameColumns([part(false, 0), part(false, 300)]).start).toBeInstanceOf(Uint32Array);
  });

  it("give back any offset_delta noted frame by frame, or in parts of any size joined, with the same runs", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(5), fc.constant(0xffffffff), fc.nat()), { maxLength: 60 }), fc.nat(7), (steps, cut) => {
        // Runs of +1 broken by jumps, a wrap past u32 included.
        const deltas = Uint32Array.from(steps.reduce<number[]>((out, step) => [...out, step % 3 === 0 ? step : ((out.at(-1) ?? 0) + 1) >>> 0], []));
        const noted = (from: number, to: number) => {
          const b = new KeptColumnsBuilder(to - from);
          for (let i = from; i < to; i++) b.noteOffsetDelta(i - from, deltas[i] as number);
          b.count = to - from;
          return b.finish();
        };
        const f = noted(0, deltas.length);
        expect(Array.from(deltas, (_, i) => frameOffsetDelta(f, i))).toEqual([...deltas]);
        expect(f.offsetRunStarts.length).toBeLessThanOrEqual(deltas.length);
        const parts = [];
        for (let at = 0; at < deltas.length; at += cut + 1) parts.push(noted(at, Math.min(deltas.length, at + cut + 1)));
        if (parts.length < 2) return;
        const joined = concatFrameColumns(parts);
        expect([...joined.offsetRunStarts]).toEqual([...f.offsetRunStarts]);
        expect([...joined.offsetRunDeltas]).toEqual([...f.offsetRunDeltas]);
      }),
      { numRuns: 300 },
    );
  });

  it("keep one offset run a batch in healthy input, and read irregular deltas as the bytes hold them", async () => {
    const xxh = await loadXxh3();
    const healthy = await analyze(producerBatch(5));
    expect([...healthy.frames.offsetRunStarts]).toEqual([0]);
    const odd = encodeBatch(xxh, { messages: [7, 1, 2, 0, 0, 9].map((offsetDelta, i) => ({ payload: `m${i}`, offsetDelta })) });
    const input = new Uint8Array(odd.length * 2);
    input.set(odd);
    input.set(odd, odd.length);
    for (const a of [analyzeWith(xxh, input), await analyze(input)]) {
      const fromBytes = Array.from({ length: 12 }, (_, i) => getU32(input, (a.frames.start[i] as number) + F.offsetDelta));
      expect(Array.from({ length: 12 }, (_, i) => frameOffsetDelta(a.frames, i))).toEqual(fromBytes);
      expect(fromBytes.slice(0, 6)).toEqual([7, 1, 2, 0, 0, 9]);
    }
    // The kernel notes runs from its flagged frames, the JS walk from every frame: the same runs either way.
    const stamped = stampBatch(xxh, odd, { partitionId: 1n, baseOffset: 40n, baseTimestamp: 9n });
    for (const bytes of [input, concat([stamped, stamped, odd])])
      expect(expectSameEverywhere(bytes, "irregular deltas").frames.offsetRunStarts.length).toBeGreaterThan(4);
  });

  it("join the offset runs of parts as one walk notes them, where a batch's deltas go on from the batch before", async () => {
    const xxh = await loadXxh3();
    const batch = (first: number) => encodeBatch(xxh, { messages: [0, 1, 2].map((k) => ({ payload: `m${k}`, offsetDelta: first + k })) });
    const input = concat([batch(0), batch(3), batch(6), batch(0)]);
    const a = expectSameEverywhere(input, "deltas going on across batches");
    expect([...a.frames.offsetRunStarts]).toEqual([0, 9]);
  });

  it("derive every frame's user_headers_length, the last of a batch's too, as the bytes hold it", async () => {
    const xxh = await loadXxh3();
    // Raw user-header bytes: only their lengths matter here, and the last frame of each batch has some.
    const batch = encodeBatch(xxh, { messages: [0, 9, 0, 23].map((n, i) => ({ payload: new Uint8Array(i * 7), userHeaders: new Uint8Array(n) })) });
    const input = new Uint8Array(batch.length * 2);
    input.set(batch);
    input.set(batch, batch.length);
    for (const a of [analyzeWith(xxh, input), await analyze(input)]) {
      expect(a.frames.count).toBe(8);
      const fromBytes = Array.from({ length: 8 }, (_, i) => getU32(input, (a.frames.start[i] as number) + F.userHeadersLength));
      expect(fromBytes.filter((n) => n > 0).length).toBe(4);
      expect(Array.from({ length: 8 }, (_, i) => frameUserHeadersLength(a.frames, i))).toEqual(fromBytes);
      expect([...a.frames.lastFrames]).toEqual([3, 7]);
    }
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

describe("KeptColumnsBuilder with one buffer", () => {
  it("keeps every column in the one releasable buffer it is given, which releaseBuffer frees", async () => {
    const xxh = await loadXxh3();
    for (const s of SAMPLES) {
      const frames = analyzeWith(xxh, s.build(xxh)).frames;
      const builder = new KeptColumnsBuilder(frames.count + 5, false, releasableBuffer);
      builder.append(frames);
      const packed = builder.finish(true);
      expect(packed, s.id).toEqual(frames);
      const columns = new Set([packed.start, packed.payloadLength, packed.flags].map((c) => c.buffer));
      expect(columns.size, `${s.id}: one buffer`).toBe(1);
      const [buffer] = columns;
      releaseBuffer(buffer!);
      expect(buffer!.byteLength, `${s.id}: freed`).toBe(0);
    }
  });
});
