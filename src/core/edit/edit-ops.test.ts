import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { encodeBatch, concat } from "../walk/encode.ts";
import { makeProducerBatch, recomputeChecksums, redactPayloads, stampAsServer, writeField, batchBytes } from "./edit.ts";
import { BATCH_HEADER_FIELDS, fieldByName } from "../../format/fields.ts";
import { frameEnd } from "../model/frame-columns.ts";

const xxh = await loadXxh3();
const codes = (bytes: Uint8Array) => analyzeWith(xxh, bytes).diagnostics.map((d) => d.code);
const corpus = (name: string) => new Uint8Array(readFileSync(new URL(`../../../test/fixtures/corpus/${name}`, import.meta.url)));

const producer = () =>
  encodeBatch(xxh, {
    originTimestamp: 1_000n,
    messages: [
      { payload: "alpha", id: 1n },
      { payload: "beta", id: 2n, userHeaders: [{ key: { kind: "string", value: "k" }, value: { kind: "u32", value: 7 } }] },
    ],
  });

describe("edit operations", () => {
  it("editing a reserved header byte raises batch-reserved-nonzero; writing it back clears it", () => {
    const bytes = producer();
    const edited = bytes.slice();
    edited[100] = 0x5a;
    const a = analyzeWith(xxh, edited);
    expect(a.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([["batch-reserved-nonzero", 100, 101]]);
    edited[100] = 0;
    expect(codes(edited)).toEqual([]);
  });

  it("recompute fixes a corrupted frame checksum and a corrupted batch checksum, listing both", () => {
    const bytes = corpus("11-frame-checksum-mismatch.bin");
    expect(codes(bytes)).toEqual(["frame-checksum-mismatch"]);
    const broken = bytes.slice();
    broken[41] = broken[41]! ^ 0xff;
    expect(codes(broken).sort()).toEqual(["batch-checksum-mismatch", "frame-checksum-mismatch"]);
    const { bytes: fixed, changes } = recomputeChecksums(xxh, broken);
    expect(codes(fixed)).toEqual([]);
    expect(changes.map((c) => c.what)).toEqual(["batch 0 frame 0 checksum", "batch 0 batch_checksum"]);
    expect(changes.map((c) => c.start)).toEqual([256, 40]);
    expect(broken[41]).not.toBe(bytes[41]);
  });

  it("recompute on a clean input changes nothing", () => {
    const bytes = producer();
    const { bytes: same, changes } = recomputeChecksums(xxh, bytes);
    expect(changes).toEqual([]);
    expect(same).toEqual(bytes);
  });

  it("stamp as server then make producer round-trips to the original bytes", () => {
    const bytes = producer();
    const stamped = stampAsServer(xxh, bytes, analyzeWith(xxh, bytes), 0, { partitionId: 3n, baseOffset: 100n, baseTimestamp: 5000n });
    const a = analyzeWith(xxh, stamped);
    expect(a.batches.at(0)!.stamped).toBe(true);
    expect(a.batches.at(0)!.header!.baseOffset).toBe(100n);
    expect(a.diagnostics).toEqual([]);
    const back = makeProducerBatch(xxh, stamped, a, 0);
    expect(back).toEqual(bytes);
  });

  it("stamping reproduces the spec's stamped golden checksum", () => {
    const golden = encodeBatch(xxh, {
      originTimestamp: 1000n,
      messages: [
        { id: 7n, payload: "first-payload" },
        { id: 8n, payload: "second-payload", timestampDelta: 50, userHeaders: new TextEncoder().encode("user-header-bytes") },
      ],
    });
    const stamped = stampAsServer(xxh, golden, analyzeWith(xxh, golden), 0, { partitionId: 3n, baseOffset: 100n, baseTimestamp: 5000n });
    expect(new DataView(stamped.buffer).getBigUint64(40, true)).toBe(0xd2ee8f8ab32668c9n);
  });

  it("writeField writes little-endian values of the field's width and leaves the input untouched", () => {
    const bytes = producer();
    const out = writeField(bytes, 0, fieldByName(BATCH_HEADER_FIELDS, "message_count"), 9n);
    expect(Array.from(out.subarray(48, 52))).toEqual([9, 0, 0, 0]);
    expect(Array.from(bytes.subarray(48, 52))).toEqual([2, 0, 0, 0]);
    expect(codes(out)).toContain("message-count-mismatch");
  });

  it("redacting zeroes payload and user-header bytes but keeps structure; checksums then mismatch until recomputed", () => {
    const bytes = producer();
    const a = analyzeWith(xxh, bytes);
    const red = redactPayloads(bytes, a);
    const r = analyzeWith(xxh, red);
    expect(r.frames.count).toBe(2);
    expect(Array.from(r.frames.payloadLength)).toEqual([5, 4]);
    for (let i = 0; i < 2; i++) expect(red.subarray((a.frames.start[i] as number) + 48, frameEnd(a.frames, i)).every((b) => b === 0)).toBe(true);
    expect(r.diagnostics.filter((d) => d.code === "frame-checksum-mismatch")).toHaveLength(2);
    expect(codes(recomputeChecksums(xxh, red).bytes).filter((c) => c !== "user-headers-malformed")).toEqual([]);
  });

  it("batchBytes cuts one batch out of a segment", () => {
    const two = concat([producer(), producer()]);
    const a = analyzeWith(xxh, two);
    expect(batchBytes(two, a, 1)).toEqual(producer());
  });
});
