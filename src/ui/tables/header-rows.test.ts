import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { concat, encodeBatch, stampBatch } from "../../core/walk/encode.ts";
import { batchHeaderRows, nonzeroRuns, PENDING_TEXT, reservedSummary } from "./header-rows.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";

const xxh = await loadXxh3();
const enc = new TextEncoder();
// Iggy's cross-SDK golden batch (batch-format.md).
const golden = encodeBatch(xxh, {
  originTimestamp: 1000n,
  messages: [
    { id: 7n, payload: "first-payload" },
    { id: 8n, payload: "second-payload", timestampDelta: 50, userHeaders: enc.encode("user-header-bytes") },
  ],
});
const byName = (rows: ReturnType<typeof batchHeaderRows>) => new Map(rows.map((r) => [r.name, r]));

describe("reserved summaries", () => {
  it("says all zero, or where the nonzero runs are (half-open, relative)", () => {
    const b = new Uint8Array(256);
    expect(reservedSummary(wholeWindow(b), 52, 256, 0)).toBe("204 bytes, all zero");
    b.fill(1, 60, 63);
    expect(reservedSummary(wholeWindow(b), 52, 256, 0)).toBe("3 nonzero bytes at 60..63");
    b[255] = 9;
    expect(reservedSummary(wholeWindow(b), 52, 256, 0)).toBe("4 nonzero bytes at 60..63, 255..256");
    expect(nonzeroRuns(b, 52, 256)).toEqual([
      [60, 63],
      [255, 256],
    ]);
  });
});

describe("batch header rows", () => {
  it("reads the golden producer batch", () => {
    expect(golden.length).toBe(396);
    const a = analyzeWith(xxh, golden);
    const rows = byName(batchHeaderRows(a, wholeWindow(golden), 0));
    expect(rows.get("partition_id")).toMatchObject({
      relOffset: 0,
      start: 0,
      end: 8,
      size: 8,
      raw: "00 00 00 00 00 00 00 00",
      value: "0",
      role: "server-stamped",
    });
    expect(rows.get("base_timestamp")?.value).toBe("0 (not stamped)");
    expect(rows.get("origin_timestamp")).toMatchObject({ raw: "e8 03 00 00 00 00 00 00", value: "1970-01-01T00:00:00.001000Z (1000)", role: "producer-set" });
    expect(rows.get("batch_length")?.value).toBe("396 bytes");
    expect(rows.get("batch_checksum")).toMatchObject({ value: "stored 7c260763c8381fa9 / computed 7c260763c8381fa9 ✓", status: "ok", role: "checksum" });
    expect(rows.get("message_count")).toMatchObject({ start: 48, end: 52, size: 4, value: "2", status: null });
    expect(rows.get("reserved")).toMatchObject({ start: 52, end: 256, raw: "204 bytes, all zero", status: "ok" });
    expect(rows.get("stamped?")).toMatchObject({ role: "derived", start: 16, end: 24, relOffset: null });
    expect(rows.get("stamped?")?.value).toMatch(/^no: a producer batch/);
    expect(rows.get("blob length")).toMatchObject({ value: "140 bytes", start: 256, end: 396 });
    expect(rows.get("complete frames")?.value).toBe("2");
    expect(rows.get("first message offset")).toMatchObject({ value: "0", start: 256, end: 317 });
    expect(rows.get("last message offset")).toMatchObject({ value: "1", start: 317, end: 396 });
  });

  it("reads a stamped batch placed after another, with absolute ranges", () => {
    const stamped = stampBatch(xxh, golden, { partitionId: 3n, baseOffset: 100n, baseTimestamp: 1_764_420_000_000_000n });
    const input = concat([golden, stamped]);
    const a = analyzeWith(xxh, input);
    const rows = byName(batchHeaderRows(a, wholeWindow(input), 1));
    expect(rows.get("partition_id")).toMatchObject({ start: 396, value: "3" });
    expect(rows.get("base_timestamp")?.value).toBe("2025-11-29T12:40:00.000000Z (1764420000000000)");
    expect(rows.get("stamped?")?.value).toMatch(/^yes/);
    expect(rows.get("first message offset")?.value).toBe("100");
    expect(rows.get("last message offset")?.value).toBe("101");
  });

  it("flags a wrong checksum, nonzero reserved bytes and a count mismatch", () => {
    const bad = golden.slice();
    bad[40]! ^= 0xff;
    bad.fill(1, 60, 63);
    bad[48] = 3;
    const a = analyzeWith(xxh, bad);
    const rows = byName(batchHeaderRows(a, wholeWindow(bad), 0));
    expect(rows.get("batch_checksum")?.value).toMatch(/^stored 7c260763c8381f56 \/ computed [0-9a-f]{16} ✗$/);
    expect(rows.get("batch_checksum")?.status).toBe("bad");
    expect(rows.get("reserved")).toMatchObject({ raw: "3 nonzero bytes at 60..63", status: "bad" });
    expect(rows.get("message_count")).toMatchObject({ value: "3 (walked 2 complete frames) ✗", status: "bad" });
  });

  it("shows what there is of a cut header, and no derived rows", () => {
    const cut = golden.subarray(0, 44);
    const a = analyzeWith(xxh, cut);
    const rows = batchHeaderRows(a, wholeWindow(cut), 0);
    expect(rows.map((r) => r.name)).toEqual([
      "partition_id",
      "base_offset",
      "base_timestamp",
      "origin_timestamp",
      "batch_length",
      "batch_checksum",
      "message_count",
      "reserved",
    ]);
    const m = byName(rows);
    expect(m.get("batch_length")?.value).toBe("396 bytes; the input holds 44 ✗");
    expect(m.get("batch_checksum")).toMatchObject({ raw: "a9 1f 38 c8 (4 of 8 bytes)", value: "— (incomplete header)", end: 44 });
    expect(m.get("message_count")).toMatchObject({ raw: "(past the end of the input)", end: 48 });
    const longer = golden.subarray(0, 100);
    const reserved = byName(batchHeaderRows(analyzeWith(xxh, longer), wholeWindow(longer), 0)).get("reserved");
    expect(reserved).toMatchObject({ raw: "48 bytes, all zero (48 of 204 bytes)", start: 52, end: 100 });
  });

  it("has no rows for a batch that does not exist", () => {
    expect(batchHeaderRows(analyzeWith(xxh, golden), wholeWindow(golden), 5)).toEqual([]);
  });

  it("reads the same rows from a window of just the header as from the whole input, and placeholders before it is read", () => {
    const input = concat([golden, golden]);
    const a = analyzeWith(xxh, input);
    const start = a.batches.start(1);
    const header = { start, bytes: input.slice(start, start + 256) };
    expect(batchHeaderRows(a, header, 1)).toEqual(batchHeaderRows(a, wholeWindow(input), 1));
    const pending = batchHeaderRows(a, null, 1);
    const fields = pending.filter((r) => r.role !== "derived");
    expect(fields).toHaveLength(8);
    for (const r of fields) expect(r).toMatchObject({ raw: "··", value: PENDING_TEXT, pending: true });
    // Derived rows come from the analysis, so they show at once.
    expect(pending.filter((r) => r.role === "derived")).toEqual(batchHeaderRows(a, header, 1).filter((r) => r.role === "derived"));
  });
});
