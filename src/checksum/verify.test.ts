/** What each checksum covers, as the layout table gives it, against batch-format.md's "Checksums" section. */
import { describe, expect, it } from "vitest";
import { BATCH_CHECKSUM_HEADER_BYTES, BATCH_CHECKSUM_HEADER_SPANS, batchChecksumSpans, frameChecksumSpan } from "./verify.ts";

describe("checksum coverage", () => {
  it("batch checksum: header bytes 0..40 and 48..52 (44 bytes), then each frame's stored checksum", () => {
    expect(BATCH_CHECKSUM_HEADER_SPANS).toEqual([
      { start: 0, end: 40 },
      { start: 48, end: 52 },
    ]);
    expect(BATCH_CHECKSUM_HEADER_BYTES).toBe(44);
    expect(batchChecksumSpans(100, 356, [0, 356, 400], 1, 3)).toEqual([
      { start: 100, end: 140 },
      { start: 148, end: 152 },
      { start: 356, end: 364 },
      { start: 400, end: 408 },
    ]);
  });

  it("batch checksum of a header the input cuts: only the bytes present", () => {
    expect(batchChecksumSpans(0, 44, [], 0, 0)).toEqual([{ start: 0, end: 40 }]);
    expect(batchChecksumSpans(0, 50, [], 0, 0)).toEqual([
      { start: 0, end: 40 },
      { start: 48, end: 50 },
    ]);
  });

  it("frame checksum: frame bytes 8..end, nothing when the frame holds no more than its checksum", () => {
    expect(frameChecksumSpan(256, 309)).toEqual({ start: 264, end: 309 });
    expect(frameChecksumSpan(256, 264)).toBeNull();
  });
});
