/** Batch diff side selection: defaults, clamping, the original-vs-current shortcut, and row filtering on a real diff. */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { diffBatches } from "../../core/view/diff.ts";
import { encodeBatch, stampBatch } from "../../core/walk/encode.ts";
import { clampSide, defaultSides, displayValue, originalVsCurrent, sideLabel, visibleRows } from "./diff-sources.ts";

describe("defaultSides", () => {
  it("an edited input: original batch 0 vs current batch 0", () => {
    expect(defaultSides({ current: 3, original: 3 })).toEqual({ left: { source: "original", batch: 0 }, right: { source: "current", batch: 0 } });
  });
  it("unedited with two or more batches: batch 0 vs batch 1", () => {
    expect(defaultSides({ current: 2, original: null })).toEqual({ left: { source: "current", batch: 0 }, right: { source: "current", batch: 1 } });
  });
  it("unedited with one batch: the same batch on both sides", () => {
    expect(defaultSides({ current: 1, original: null })).toEqual({ left: { source: "current", batch: 0 }, right: { source: "current", batch: 0 } });
  });
});

describe("clampSide and originalVsCurrent", () => {
  it("clamps batch indices and drops an unavailable original", () => {
    expect(clampSide({ source: "current", batch: 5 }, { current: 2, original: null })).toEqual({ source: "current", batch: 1 });
    expect(clampSide({ source: "original", batch: 1 }, { current: 3, original: null })).toEqual({ source: "current", batch: 1 });
    expect(clampSide({ source: "original", batch: 4 }, { current: 9, original: 2 })).toEqual({ source: "original", batch: 1 });
    const same = { source: "current", batch: 0 } as const;
    expect(clampSide(same, { current: 1, original: null })).toBe(same);
  });
  it("puts the original of the current batch on the left", () => {
    const sides = { left: { source: "current", batch: 0 }, right: { source: "current", batch: 2 } } as const;
    expect(originalVsCurrent(sides, { current: 3, original: 3 })).toEqual({ left: { source: "original", batch: 2 }, right: { source: "current", batch: 2 } });
  });
  it("shows checksums in hex and leaves other values alone", () => {
    expect(displayValue("batch_checksum", String(0x7c260763c8381fa9n))).toBe("0x7c260763c8381fa9");
    expect(displayValue("checksum", "255")).toBe("0x00000000000000ff");
    expect(displayValue("checksum", "—")).toBe("—");
    expect(displayValue("base_offset", "255")).toBe("255");
  });
  it("labels", () => {
    expect(sideLabel({ source: "current", batch: 3 })).toBe("Batch 3");
    expect(sideLabel({ source: "original", batch: 0 })).toBe("Original batch 0");
  });
});

describe("visibleRows on a real diff: stamping a producer batch", () => {
  it("changes partition_id, base_offset, base_timestamp and batch_checksum only", async () => {
    const xxh = await loadXxh3();
    const producer = encodeBatch(xxh, { originTimestamp: 1000n, messages: [{ payload: "a" }, { payload: "bb", timestampDelta: 5 }] });
    const stamped = stampBatch(xxh, producer, { partitionId: 3n, baseOffset: 100n, baseTimestamp: 5000n });
    const rows = diffBatches(
      { bytes: producer, analysis: analyzeWith(xxh, producer), batch: 0 },
      { bytes: stamped, analysis: analyzeWith(xxh, stamped), batch: 0 },
    );
    const all = visibleRows(rows, false);
    const changed = visibleRows(rows, true);
    expect(all.rows).toHaveLength(rows.length);
    expect(all.changed).toBe(4);
    expect(changed.rows.map((r) => `${r.scope}.${r.field}`)).toEqual([
      "batch.partition_id",
      "batch.base_offset",
      "batch.base_timestamp",
      "batch.batch_checksum",
    ]);
    expect(changed.rows[0]).toMatchObject({ left: "0", right: "3" });
  });
});

describe("another file as a side", () => {
  it("opens as current batch 0 against the other file's batch 0, and falls back when it is gone", () => {
    expect(defaultSides({ current: 3, original: null, other: 2 })).toEqual({ left: { source: "current", batch: 0 }, right: { source: "other", batch: 0 } });
    expect(clampSide({ source: "other", batch: 5 }, { current: 3, original: null, other: 2 })).toEqual({ source: "other", batch: 1 });
    expect(clampSide({ source: "other", batch: 1 }, { current: 3, original: null, other: null })).toEqual({ source: "current", batch: 1 });
    expect(sideLabel({ source: "other", batch: 4 })).toBe("Other file batch 4");
  });
});
