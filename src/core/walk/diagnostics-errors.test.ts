/**
 * The nine error codes of batch-format.md's diagnostics table: each fires with its exact
 * code, severity, byte range [start, end) and batch/frame index, and a near miss does not
 * fire it. Inputs are valid batches from encode.ts with byte surgery on the result.
 */
import { describe, expect, it } from "vitest";
import { encodeBatch } from "./encode.ts";
import { FrameFlag } from "../model/model.ts";
import {
  B,
  F,
  analyze,
  codes,
  concat,
  findings,
  frameStartsOf,
  getU64,
  producerBatch,
  refreshBatchChecksum,
  refreshFrameChecksum,
  setU32,
  setU64,
  stampedBatch,
  xxh,
} from "../../../test/helpers.ts";
import { frameComputedChecksum, frameStoredChecksum } from "../model/frame-columns.ts";

// producerBatch(n): frame i carries payload "message-i" (9 bytes) and no user headers,
// so every frame is 57 bytes: frame 0 at 256, frame 1 at 313, a 2-frame batch is 370 bytes.
const F0 = 256;
const F1 = 313;

describe("header-truncated (error): fewer than 256 bytes where a batch header starts; range = the leftover bytes", () => {
  it("fires on the bytes after the last whole batch", async () => {
    const a = producerBatch(1); // 313 bytes
    const input = concat([a, new Uint8Array(53).fill(0xab)]);
    const r = await analyze(input);
    expect(findings(r)).toEqual([{ code: "header-truncated", severity: "error", start: 313, end: 366, batch: 1, frame: null }]);
    expect(r.batches).toHaveLength(2);
    expect(r.batches.at(1)).toMatchObject({ start: 313, end: 366, header: null, computedChecksum: null, frameCount: 0 });
  });

  it("fires on a lone 255-byte input as batch 0", async () => {
    const r = await analyze(new Uint8Array(255));
    expect(findings(r)).toEqual([{ code: "header-truncated", severity: "error", start: 0, end: 255, batch: 0, frame: null }]);
  });

  it("does not fire when batches end exactly at the end of the input, or on a whole 256-byte header", async () => {
    const r = await analyze(concat([producerBatch(1), producerBatch(2)]));
    expect(findings(r)).toEqual([]);
    expect(r.summary).toMatchObject({ batches: 2, frames: 3 });
    const zeros = await analyze(new Uint8Array(256)); // a whole header: batch_length 0 is another finding
    expect(codes(zeros)).not.toContain("header-truncated");
  });
});

describe("batch-length-too-small (error): batch_length < 256; range = the batch_length field", () => {
  it("fires on the batch's own field and the walk stops there: nothing else about it, nothing after it", async () => {
    const a = producerBatch(1);
    const b = producerBatch(2);
    setU64(b, B.batchLength, 255n); // checksum now stale too, but nothing else may be reported
    const input = concat([a, b, producerBatch(3)]);
    const r = await analyze(input);
    expect(findings(r)).toEqual([{ code: "batch-length-too-small", severity: "error", start: 313 + 32, end: 313 + 40, batch: 1, frame: null }]);
    expect(r.summary).toMatchObject({ batches: 2, frames: 1 });
    expect(r.batches.at(1)).toMatchObject({ start: 313, frameCount: 0, computedChecksum: null });
  });

  it("does not fire at batch_length exactly 256: the walk steps past the empty batch", async () => {
    const empty = encodeBatch(xxh, { messages: [] });
    expect(empty.length).toBe(256);
    const r = await analyze(concat([producerBatch(1), empty, producerBatch(2)]));
    expect(codes(r)).toEqual(["empty-batch"]);
    expect(r.summary).toMatchObject({ batches: 3, frames: 3 });
  });
});

describe("batch-truncated (error): batch_length runs past the end of the input; range = the batch_length field", () => {
  it("fires when the input stops early; the frames present are still decoded", async () => {
    const cut = producerBatch(2).slice(0, F1); // header + frame 0 of a 370-byte batch
    setU32(cut, B.messageCount, 1);
    refreshBatchChecksum(cut, 0, [F0]);
    const r = await analyze(cut);
    expect(findings(r)).toEqual([{ code: "batch-truncated", severity: "error", start: 32, end: 40, batch: 0, frame: null }]);
    expect(r.batches.at(0)).toMatchObject({ start: 0, end: F1, frameCount: 1 });
  });

  it("left as cut, the count and checksum findings follow from the walked frames", async () => {
    const r = await analyze(producerBatch(2).slice(0, F1));
    expect(new Set(codes(r))).toEqual(new Set(["batch-truncated", "message-count-mismatch", "batch-checksum-mismatch"]));
  });

  it("says exactly how far past the end, in bigint: a batch_length near 2^64 loses no precision", async () => {
    const cut = producerBatch(2).slice(0, F1);
    const huge = 2n ** 64n - 3n;
    setU64(cut, B.batchLength, huge);
    const d = (await analyze(cut)).diagnostics.find((x) => x.code === "batch-truncated");
    expect(d?.message).toContain(`runs ${huge - BigInt(F1)} bytes past the end`);
  });

  it("does not fire when batch_length is exactly the input size", async () => {
    const cut = producerBatch(2).slice(0, F1);
    setU32(cut, B.messageCount, 1);
    setU64(cut, B.batchLength, BigInt(F1));
    refreshBatchChecksum(cut, 0, [F0]);
    expect(findings(await analyze(cut))).toEqual([]);
  });
});

describe("batch-reserved-nonzero (error): nonzero bytes in header bytes 52..256; range = each run of nonzero bytes", () => {
  it("fires once per run, at the first and last reserved byte too, in a later batch", async () => {
    const a = producerBatch(1);
    const b = stampedBatch(1, { baseOffset: 1n, baseTimestamp: 5000n });
    b[52] = 1;
    b[100] = 0xff;
    b[101] = 0x01;
    b[102] = 0x80;
    b[255] = 7;
    const s = a.length;
    const r = await analyze(concat([a, b])); // reserved bytes are not in the batch checksum
    expect(findings(r)).toEqual([
      { code: "batch-reserved-nonzero", severity: "error", start: s + 52, end: s + 53, batch: 1, frame: null },
      { code: "batch-reserved-nonzero", severity: "error", start: s + 100, end: s + 103, batch: 1, frame: null },
      { code: "batch-reserved-nonzero", severity: "error", start: s + 255, end: s + 256, batch: 1, frame: null },
    ]);
  });

  it("does not fire when every byte of 0..52 is nonzero but 52..256 are zero", async () => {
    const b = encodeBatch(xxh, {
      partitionId: 0x1111111111111111n,
      baseOffset: 0x2222222222222222n,
      baseTimestamp: 0x3333333333333333n,
      originTimestamp: 0x4444444444444444n,
      messages: [{ payload: "p" }],
    });
    setU32(b, B.messageCount, 0x01010101); // bytes 48..52 nonzero as well (a count finding, not a reserved one)
    refreshBatchChecksum(b);
    for (let i = 0; i < 52; i++) if (i < 32 || i >= 48) expect(b[i], `byte ${i}`).not.toBe(0);
    const r = await analyze(b);
    expect(codes(r)).toEqual(["message-count-mismatch"]);
  });
});

describe("frame-truncated (error): a frame runs past the blob or the input; range = the partial frame", () => {
  it("fires when payload_length runs past the blob although the input goes on (next batch still decoded)", async () => {
    const b = producerBatch(2);
    setU32(b, F1 + F.payloadLength, 10); // frame 1 would end at 371, the blob ends at 370
    setU32(b, B.messageCount, 1);
    refreshBatchChecksum(b, 0, [F0]);
    const r = await analyze(concat([b, producerBatch(2)]));
    expect(findings(r)).toEqual([{ code: "frame-truncated", severity: "error", start: F1, end: 370, batch: 0, frame: 1 }]);
    expect(r.batches.at(0)?.truncatedFrame).toEqual({ start: F1, end: 370, headerComplete: true });
    expect(r.summary).toMatchObject({ batches: 2, frames: 3 });
  });

  it("fires when fewer than 48 bytes are left in the blob for a frame header", async () => {
    const b = concat([producerBatch(1), new Uint8Array(20)]);
    setU64(b, B.batchLength, BigInt(b.length));
    refreshBatchChecksum(b, 0, [F0]);
    const r = await analyze(b);
    expect(findings(r)).toEqual([{ code: "frame-truncated", severity: "error", start: F1, end: F1 + 20, batch: 0, frame: 1 }]);
    expect(r.batches.at(0)?.truncatedFrame).toEqual({ start: F1, end: F1 + 20, headerComplete: false });
  });

  it("fires when the input ends inside a frame (with batch-truncated)", async () => {
    const cut = producerBatch(2).slice(0, 340);
    setU32(cut, B.messageCount, 1);
    refreshBatchChecksum(cut, 0, [F0]);
    const r = await analyze(cut);
    expect(findings(r)).toEqual([
      { code: "batch-truncated", severity: "error", start: 32, end: 40, batch: 0, frame: null },
      { code: "frame-truncated", severity: "error", start: F1, end: 340, batch: 0, frame: 1 },
    ]);
  });

  it("does not fire when the last frame (payload and user headers) ends exactly at the blob end", async () => {
    const b = encodeBatch(xxh, {
      messages: [{ payload: "abc" }, { payload: "", userHeaders: [{ key: { kind: "string", value: "k" }, value: { kind: "u8", value: 1 } }] }],
    });
    const r = await analyze(concat([b, producerBatch(1)]));
    expect(findings(r)).toEqual([]);
    expect(r.batches.at(0)?.truncatedFrame).toBeNull();
  });
});

describe("frame-reserved-nonzero (error): frame bytes 40..48 not all zero; range = those 8 bytes", () => {
  it("fires on frame 1's reserved bytes", async () => {
    const b = producerBatch(2);
    b[F1 + 47] = 0x80;
    refreshFrameChecksum(b, F1);
    refreshBatchChecksum(b);
    const r = await analyze(b);
    expect(findings(r)).toEqual([{ code: "frame-reserved-nonzero", severity: "error", start: F1 + 40, end: F1 + 48, batch: 0, frame: 1 }]);
    expect(r.frames.flags[1]! & FrameFlag.reservedNonzero).toBeTruthy();
    expect(r.frames.flags[0]! & FrameFlag.reservedNonzero).toBe(0);
  });

  it("does not fire when the bytes around them (id, lengths, payload) are all nonzero", async () => {
    const b = encodeBatch(xxh, { messages: [{ payload: new Uint8Array([0xff, 0xff]), id: (1n << 128n) - 1n, timestampDelta: 0 }] });
    const r = await analyze(b);
    expect(b[F0 + 39]).toBe(0); // payload_length 2: its top byte is zero, the payload right after is not
    expect(findings(r)).toEqual([]);
  });
});

describe("frame-checksum-mismatch (error): stored frame checksum ≠ computed; range = frame bytes 0..8", () => {
  it("fires on a changed payload byte, and not on the batch: payloads are bound only through frame checksums", async () => {
    const b = producerBatch(2);
    b[F1 + 48]! ^= 0x01;
    const r = await analyze(b);
    expect(findings(r)).toEqual([{ code: "frame-checksum-mismatch", severity: "error", start: F1, end: F1 + 8, batch: 0, frame: 1 }]);
    expect(frameComputedChecksum(r.frames, b, 1)).toBe(xxh.hash(b.subarray(F1 + 8, F1 + 57)));
    expect(frameStoredChecksum(r.frames, b, 1)).not.toBe(frameComputedChecksum(r.frames, b, 1));
  });

  it("does not fire once the frame checksum is recomputed (the stale batch checksum then does)", async () => {
    const b = producerBatch(2);
    b[F1 + 48]! ^= 0x01;
    refreshFrameChecksum(b, F1);
    expect(findings(await analyze(b))).toEqual([{ code: "batch-checksum-mismatch", severity: "error", start: 40, end: 48, batch: 0, frame: null }]);
    refreshBatchChecksum(b);
    expect(findings(await analyze(b))).toEqual([]);
  });
});

describe("message-count-mismatch (error): complete frames ≠ message_count; range = the message_count field", () => {
  it("fires when message_count says more frames than the blob holds", async () => {
    const a = producerBatch(1);
    const b = producerBatch(2);
    setU32(b, B.messageCount, 3);
    refreshBatchChecksum(b);
    const s = a.length;
    const r = await analyze(concat([a, b]));
    expect(findings(r)).toEqual([{ code: "message-count-mismatch", severity: "error", start: s + 48, end: s + 52, batch: 1, frame: null }]);
  });

  it("fires for message_count 1 over an empty blob, which is not an empty batch", async () => {
    const b = encodeBatch(xxh, { messages: [] });
    setU32(b, B.messageCount, 1);
    refreshBatchChecksum(b);
    expect(findings(await analyze(b))).toEqual([{ code: "message-count-mismatch", severity: "error", start: 48, end: 52, batch: 0, frame: null }]);
  });

  it("does not fire when message_count equals the complete frames", async () => {
    const b = producerBatch(5);
    expect(frameStartsOf(b)).toHaveLength(5);
    expect(findings(await analyze(b))).toEqual([]);
  });
});

describe("batch-checksum-mismatch (error): stored batch_checksum ≠ computed; range = the batch_checksum field", () => {
  it("fires when a header field in the checksum changes (origin_timestamp of a later batch)", async () => {
    const a = producerBatch(1);
    const b = stampedBatch(2, { baseOffset: 10n, baseTimestamp: 5000n });
    setU64(b, B.originTimestamp, getU64(b, B.originTimestamp) + 1n);
    const s = a.length;
    const r = await analyze(concat([a, b]));
    expect(findings(r)).toEqual([{ code: "batch-checksum-mismatch", severity: "error", start: s + 40, end: s + 48, batch: 1, frame: null }]);
    expect(r.batches.at(1)?.computedChecksum).not.toBe(r.batches.at(1)?.header?.batchChecksum);
  });

  it("fires on a flipped bit of the stored checksum itself", async () => {
    const b = producerBatch(1);
    b[47]! ^= 0x40;
    expect(findings(await analyze(b))).toEqual([{ code: "batch-checksum-mismatch", severity: "error", start: 40, end: 48, batch: 0, frame: null }]);
  });

  it("does not fire after a header change when the checksum is recomputed as the server does", async () => {
    const b = producerBatch(2);
    setU64(b, B.partitionId, 9n);
    setU64(b, B.baseOffset, 77n);
    setU64(b, B.baseTimestamp, 1n);
    refreshBatchChecksum(b);
    const r = await analyze(b);
    expect(findings(r)).toEqual([]);
    expect(r.batches.at(0)?.computedChecksum).toBe(getU64(b, B.batchChecksum));
  });
});
