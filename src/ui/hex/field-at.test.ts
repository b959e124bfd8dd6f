import { describe, expect, test } from "vitest";
import { bytesToHex } from "../../format/values.ts";
import { fieldAt } from "./field-at.ts";
import { analysed, corpus, goldenBatch } from "./fixtures.test-util.ts";

describe("the golden batch", () => {
  const bytes = goldenBatch();
  const { analysis } = analysed(bytes);

  test("is the spec's vector", () => {
    expect(bytes.length).toBe(396);
    expect(bytesToHex(bytes.subarray(40, 48))).toBe("a91f38c86307267c");
  });

  test("header bytes name their whole field", () => {
    expect(fieldAt(analysis, bytes, 10)).toMatchObject({ kind: "batch.base_offset", start: 8, end: 16, batch: 0, batchStart: 0, frame: -1, frameStart: -1 });
    expect(fieldAt(analysis, bytes, 0)).toMatchObject({ kind: "batch.partition_id", start: 0, end: 8 });
    expect(fieldAt(analysis, bytes, 51)).toMatchObject({ kind: "batch.message_count", start: 48, end: 52 });
    expect(fieldAt(analysis, bytes, 200)).toMatchObject({ kind: "batch.reserved", start: 52, end: 256 });
  });

  test("frame bytes name their field and frame", () => {
    expect(fieldAt(analysis, bytes, 256)).toMatchObject({
      kind: "frame.checksum",
      start: 256,
      end: 264,
      frame: 0,
      frameStart: 256,
      frameEnd: 317,
      frameInBatch: 0,
      truncated: false,
    });
    expect(fieldAt(analysis, bytes, 340)).toMatchObject({ kind: "frame.id", start: 325, end: 341, frame: 1, frameInBatch: 1 });
    expect(fieldAt(analysis, bytes, 310)).toMatchObject({ kind: "frame.payload", start: 304, end: 317, spec: null });
    expect(fieldAt(analysis, bytes, 365)).toMatchObject({ kind: "frame.payload", start: 365, end: 379 });
    expect(fieldAt(analysis, bytes, 395)).toMatchObject({ kind: "frame.user_headers", start: 379, end: 396 });
  });
});

describe("damaged inputs", () => {
  test("a cut header is clamped to the input", () => {
    const { analysis, bytes } = corpus("05-header-truncated.bin");
    // The second "batch" is 100 bytes at 309: its base_offset is whole, origin_timestamp cut.
    expect(fieldAt(analysis, bytes, 320)).toMatchObject({ kind: "batch.base_offset", start: 317, end: 325, batch: 1, batchStart: 309 });
    expect(fieldAt(analysis, bytes, 408)).toMatchObject({ kind: "batch.reserved", start: 361, end: 409 });
  });

  test("bytes after a batch that cannot be stepped past are one unattributed run", () => {
    const { analysis, bytes } = corpus("06-batch-length-too-small.bin");
    expect(fieldAt(analysis, bytes, 300)).toMatchObject({ kind: "unattributed", start: 256, end: 572, batch: -1, frame: -1 });
    expect(fieldAt(analysis, bytes, 256)).toMatchObject({ kind: "unattributed", start: 256, end: 572 });
  });

  test("a truncated frame's payload stops at the blob", () => {
    const { analysis, bytes } = corpus("09-frame-truncated.bin");
    expect(fieldAt(analysis, bytes, 337)).toMatchObject({
      kind: "frame.checksum",
      start: 337,
      end: 345,
      frame: -1,
      frameStart: 337,
      frameEnd: 425,
      frameInBatch: 1,
      truncated: true,
    });
    expect(fieldAt(analysis, bytes, 400)).toMatchObject({ kind: "frame.payload", start: 385, end: 425, truncated: true });
  });
});
