/** Overview rows from a real analysis: kinds by majority, batch ticks, and each diagnostic's worst severity on its rows. */
import { describe, expect, it } from "vitest";
import { analyze } from "../../core/analyze.ts";
import { KIND_CODE } from "../../core/byte-map.ts";
import { concat, producerBatch, stampedBatch } from "../../../test/helpers.ts";
import { overviewRows, rowOfByte } from "./overview-data.ts";

describe("overview rows", () => {
  it("maps bytes to rows proportionally and never past the last row", () => {
    expect(rowOfByte(0, 1000, 10)).toBe(0);
    expect(rowOfByte(999, 1000, 10)).toBe(9);
    expect(rowOfByte(500, 1000, 10)).toBe(5);
    expect(rowOfByte(5000, 1000, 10)).toBe(9);
  });

  it("ticks every batch start and marks a flipped payload byte's rows as an error", async () => {
    const a = stampedBatch(3, { partitionId: 1n, baseOffset: 0n, baseTimestamp: 10n });
    const b = producerBatch(2);
    b[256 + 48 + 1]! ^= 0xff; // a payload byte of b's first frame: its checksum no longer matches
    const bytes = concat([a, b]);
    const analysis = await analyze(bytes);
    expect(analysis.summary.errors).toBeGreaterThan(0);
    const rows = 64;
    const o = overviewRows(analysis, bytes, rows);
    expect([...o.batchStarts.keys()].filter((r) => o.batchStarts[r])).toEqual([0, rowOfByte(a.length, bytes.length, rows)]);
    for (const d of analysis.diagnostics.filter((x) => x.severity === "error")) expect(o.problems[rowOfByte(d.start, bytes.length, rows)]).toBe(3);
    // Row 0 is batch header bytes; no row before the second batch holds a problem.
    expect(o.kinds[0]).toBe(KIND_CODE["batch.partition_id"]);
    expect([...o.problems.subarray(0, rowOfByte(a.length, bytes.length, rows))].every((p) => p === 0)).toBe(true);
  });
});
