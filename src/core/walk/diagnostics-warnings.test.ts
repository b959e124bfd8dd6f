/**
 * The five warning codes and the info code of batch-format.md's diagnostics table: each
 * fires with its exact code, severity, byte range [start, end) and batch/frame index, and
 * a near miss does not fire it. Inputs come from encode.ts (valid checksums throughout).
 */
import { describe, expect, it } from "vitest";
import { encodeBatch, encodeUserHeaders, stampBatch, type MessageSpec } from "./encode.ts";
import { FrameFlag } from "../model/model.ts";
import { B, analyze, codes, concat, findings, frameStartsOf, producerBatch, setU32, stampedBatch, refreshBatchChecksum, xxh } from "../../../test/helpers.ts";

/** A batch of messages with the given offset deltas (payload "m<i>", timestamp delta 0 on frame 0). */
function withDeltas(deltas: number[], stamp?: { partitionId: bigint; baseOffset: bigint; baseTimestamp: bigint }): Uint8Array {
  const b = encodeBatch(xxh, { originTimestamp: 1000n, messages: deltas.map((d, i) => ({ payload: `m${i}`, offsetDelta: d, timestampDelta: i })) });
  return stamp ? stampBatch(xxh, b, stamp) : b;
}

describe("empty-batch (warning): message_count 0 and an empty blob; range = the message_count field", () => {
  it("fires on a producer batch and on a stamped batch inside a segment", async () => {
    const empty = encodeBatch(xxh, { messages: [] });
    expect(findings(await analyze(empty))).toEqual([{ code: "empty-batch", severity: "warning", start: 48, end: 52, batch: 0, frame: null }]);

    const a = stampedBatch(2, { baseOffset: 0n, baseTimestamp: 100n });
    const e = stampBatch(xxh, empty, { partitionId: 1n, baseOffset: 2n, baseTimestamp: 200n });
    const c = stampedBatch(1, { baseOffset: 2n, baseTimestamp: 300n });
    const r = await analyze(concat([a, e, c]));
    expect(findings(r)).toEqual([{ code: "empty-batch", severity: "warning", start: a.length + 48, end: a.length + 52, batch: 1, frame: null }]);
  });

  it("does not fire when message_count is 0 but the blob holds a frame (that is a count mismatch)", async () => {
    const b = producerBatch(1);
    setU32(b, B.messageCount, 0);
    refreshBatchChecksum(b);
    expect(codes(await analyze(b))).toEqual(["message-count-mismatch"]);
  });
});

describe("offset-delta-not-index (warning): deltas must step by one; range = the offset_delta field", () => {
  it("fires on a producer batch's frame whose delta is not its index", async () => {
    const b = withDeltas([0, 1, 3]);
    const f2 = frameStartsOf(b)[2] as number;
    const r = await analyze(b);
    expect(findings(r)).toEqual([{ code: "offset-delta-not-index", severity: "warning", start: f2 + 24, end: f2 + 28, batch: 0, frame: 2 }]);
    expect(r.frames.flags[2]! & FrameFlag.offsetDeltaNotIndex).toBeTruthy();
  });

  it("fires on a stamped batch with deltas 5, 6, 6 at the last frame only", async () => {
    const b = withDeltas([5, 6, 6], { partitionId: 1n, baseOffset: 100n, baseTimestamp: 5000n });
    const f2 = frameStartsOf(b)[2] as number;
    expect(findings(await analyze(b))).toEqual([{ code: "offset-delta-not-index", severity: "warning", start: f2 + 24, end: f2 + 28, batch: 0, frame: 2 }]);
  });

  it("does not fire on a stamped batch with deltas 5, 6, 7 (a poll reply's tail), but does on a producer one", async () => {
    const stamped = withDeltas([5, 6, 7], { partitionId: 1n, baseOffset: 100n, baseTimestamp: 5000n });
    expect(findings(await analyze(stamped))).toEqual([]);
    const producer = withDeltas([5, 6, 7]);
    const starts = frameStartsOf(producer);
    expect(findings(await analyze(producer))).toEqual(
      starts.map((s, i) => ({ code: "offset-delta-not-index", severity: "warning", start: s + 24, end: s + 28, batch: 0, frame: i })),
    );
  });
});

describe("origin-not-earliest (warning): frames exist and none has timestamp_delta 0; range = the origin_timestamp field", () => {
  it("fires when every frame is later than origin_timestamp", async () => {
    const b = encodeBatch(xxh, { originTimestamp: 1000n, messages: [5, 10, 20].map((t) => ({ payload: "x", timestampDelta: t })) });
    const a = producerBatch(1);
    const r = await analyze(concat([a, b]));
    expect(findings(r)).toEqual([{ code: "origin-not-earliest", severity: "warning", start: a.length + 24, end: a.length + 32, batch: 1, frame: null }]);
  });

  it("does not fire when a non-first frame has delta 0, nor on a batch with no frames", async () => {
    const b = encodeBatch(xxh, { originTimestamp: 1000n, messages: [30, 0, 10].map((t) => ({ payload: "x", timestampDelta: t })) });
    expect(findings(await analyze(b))).toEqual([]);
    expect(codes(await analyze(encodeBatch(xxh, { originTimestamp: 1000n, messages: [] })))).toEqual(["empty-batch"]);
  });
});

describe("offset-discontinuity (warning): a stamped batch must continue its partition's offsets; range = its base_offset field", () => {
  const p1a = stampedBatch(3, { partitionId: 1n, baseOffset: 100n, baseTimestamp: 5000n }); // offsets 100..102

  it("fires on the next stamped batch of the same partition that skips an offset", async () => {
    const next = stampedBatch(2, { partitionId: 1n, baseOffset: 104n, baseTimestamp: 6000n });
    const r = await analyze(concat([p1a, next]));
    const s = p1a.length;
    expect(findings(r)).toEqual([{ code: "offset-discontinuity", severity: "warning", start: s + 8, end: s + 16, batch: 1, frame: null }]);
  });

  it("fires across another partition's batch, and on a repeated offset", async () => {
    const other = stampedBatch(2, { partitionId: 2n, baseOffset: 0n, baseTimestamp: 5500n });
    const repeat = stampedBatch(1, { partitionId: 1n, baseOffset: 102n, baseTimestamp: 6000n });
    const r = await analyze(concat([p1a, other, repeat]));
    const s = p1a.length + other.length;
    expect(findings(r)).toEqual([{ code: "offset-discontinuity", severity: "warning", start: s + 8, end: s + 16, batch: 2, frame: null }]);
  });

  it("does not fire on continuous offsets (also through deltas 5, 6), across partitions, or between producer batches", async () => {
    const next = stampedBatch(2, { partitionId: 1n, baseOffset: 103n, baseTimestamp: 6000n });
    const other = stampedBatch(2, { partitionId: 2n, baseOffset: 500n, baseTimestamp: 5500n });
    expect(findings(await analyze(concat([p1a, other, next])))).toEqual([]);
    // base_offset 98 + first delta 5 = 103 continues 102
    const tail = withDeltas([5, 6], { partitionId: 1n, baseOffset: 98n, baseTimestamp: 6000n });
    expect(findings(await analyze(concat([p1a, tail])))).toEqual([]);
    // producers send base_offset 0 every time: no continuity rule applies to them
    expect(findings(await analyze(concat([producerBatch(3), producerBatch(2), producerBatch(1)])))).toEqual([]);
  });
});

describe("timestamp-regression (warning): a stamped batch's base_timestamp below its partition's previous one; range = its base_timestamp field", () => {
  const first = stampedBatch(2, { partitionId: 1n, baseOffset: 100n, baseTimestamp: 6000n });

  it("fires when the next batch of the same partition goes back in time", async () => {
    const next = stampedBatch(2, { partitionId: 1n, baseOffset: 102n, baseTimestamp: 5999n });
    const s = first.length;
    expect(findings(await analyze(concat([first, next])))).toEqual([
      { code: "timestamp-regression", severity: "warning", start: s + 16, end: s + 24, batch: 1, frame: null },
    ]);
  });

  it("does not fire on an equal base_timestamp, nor on another partition's smaller one", async () => {
    const same = stampedBatch(2, { partitionId: 1n, baseOffset: 102n, baseTimestamp: 6000n });
    const other = stampedBatch(1, { partitionId: 2n, baseOffset: 0n, baseTimestamp: 10n });
    expect(findings(await analyze(concat([first, other, same])))).toEqual([]);
  });
});

describe("user-headers-malformed (info): a nonempty user headers block that is not Iggy TLV; range = the block", () => {
  const tlv = encodeUserHeaders([{ key: { kind: "string", value: "trace" }, value: { kind: "u64", value: 42n } }]);

  it("fires on raw bytes, an odd entry count and a bool of value 2", async () => {
    const bad: Array<MessageSpec["userHeaders"]> = [
      new TextEncoder().encode("user-header-bytes"),
      tlv.subarray(0, 10), // the key entry alone
      encodeUserHeaders([{ key: { kind: "string", value: "flag" }, value: { kind: "bool", value: new Uint8Array([2]) } }]),
    ];
    for (const userHeaders of bad) {
      const b = encodeBatch(xxh, { messages: [{ payload: "first" }, { payload: "second", userHeaders }] });
      const f1 = frameStartsOf(b)[1] as number;
      const r = await analyze(b);
      const block = f1 + 48 + 6;
      expect(findings(r)).toEqual([{ code: "user-headers-malformed", severity: "info", start: block, end: b.length, batch: 0, frame: 1 }]);
      expect(r.summary).toMatchObject({ errors: 0, warnings: 0, infos: 1 });
      expect(r.frames.flags[1]! & FrameFlag.userHeadersMalformed).toBeTruthy();
    }
  });

  it("does not fire on well-formed TLV headers or on an empty block", async () => {
    const b = encodeBatch(xxh, { messages: [{ payload: "first", userHeaders: tlv }, { payload: "second" }] });
    expect(findings(await analyze(b))).toEqual([]);
  });
});
