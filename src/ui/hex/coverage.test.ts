import { describe, expect, test } from "vitest";
import { checksumCoverage, coveredBytes } from "./coverage.ts";
import { fieldAt } from "./field-at.ts";
import { analysed, corpus, goldenBatch } from "./fixtures.test-util.ts";

describe("checksumCoverage", () => {
  const { analysis, bytes } = analysed(goldenBatch());
  const at = (offset: number) => checksumCoverage(analysis, fieldAt(analysis, bytes, offset));

  test("batch_checksum: header 0..40 and 48..52, then each walked frame's 8 checksum bytes", () => {
    const c = at(40);
    expect(c?.of).toBe("batch.batch_checksum");
    expect(c?.spans).toEqual([
      { start: 0, end: 40 },
      { start: 48, end: 52 },
      { start: 256, end: 264 },
      { start: 317, end: 325 },
    ]);
    // 44 + 8 × frames bytes, as the spec counts them.
    expect(coveredBytes(c!)).toBe(44 + 8 * 2);
  });

  test("frame checksum: frame bytes 8..end", () => {
    expect(at(256)?.spans).toEqual([{ start: 264, end: 317 }]);
    expect(at(320)?.spans).toEqual([{ start: 325, end: 396 }]);
  });

  test("the same field gives the same object, so the store does not notify", () => {
    expect(at(41)).toBe(at(47));
  });

  test("other fields cover nothing", () => {
    expect(at(8)).toBeNull();
    expect(at(300)).toBeNull();
  });

  test("a truncated frame's checksum covers what the input holds", () => {
    const t = corpus("09-frame-truncated.bin");
    expect(checksumCoverage(t.analysis, fieldAt(t.analysis, t.bytes, 337))?.spans).toEqual([{ start: 345, end: 425 }]);
    // Only the complete frame's checksum is part of the batch checksum.
    expect(checksumCoverage(t.analysis, fieldAt(t.analysis, t.bytes, 40))?.spans).toEqual([
      { start: 0, end: 40 },
      { start: 48, end: 52 },
      { start: 256, end: 264 },
    ]);
  });
});
