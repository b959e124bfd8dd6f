/** Overview rows from a real analysis: kinds by majority, batch ticks, and each diagnostic's worst severity on its rows. */
import { describe, expect, it } from "vitest";
import { analyze } from "../../core/walk/analyze.ts";
import { KIND_CODE, kindNeeds } from "../../core/view/byte-map.ts";
import { concat, producerBatch, stampedBatch } from "../../../test/helpers.ts";
import { overviewRows, rowOfByte, TICK_GAP } from "./overview-data.ts";
import { goldenBatch } from "../hex/fixtures.test-util.ts";

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
    // Batches far apart: every start is ticked.
    expect(o.ticks).toEqual(o.batchStarts);
    for (const d of analysis.diagnostics.filter((x) => x.severity === "error")) expect(o.problems[rowOfByte(d.start, bytes.length, rows)]).toBe(3);
    // Row 0 is batch header bytes; no row before the second batch holds a problem.
    expect(o.kinds[0]).toBe(KIND_CODE["batch.partition_id"]);
    expect([...o.problems.subarray(0, rowOfByte(a.length, bytes.length, rows))].every((p) => p === 0)).toBe(true);
  });

  it("draws an input read on demand from kindNeeds' windows alone, as it draws the whole input", async () => {
    // The golden batch cut inside frame 1's user headers: a truncated frame whose kinds need its header.
    const bytes = goldenBatch().subarray(0, 391);
    const analysis = await analyze(bytes);
    expect(analysis.batches.some((b) => b.truncatedFrame?.headerComplete)).toBe(true);
    const windows = kindNeeds(analysis, 0, bytes.length).map((r) => ({ start: r.start, bytes: bytes.slice(r.start, r.end) }));
    expect(windows.length).toBe(1);
    expect(overviewRows(analysis, [], bytes.length), "without its header the frame's user headers read as payload").not.toEqual(
      overviewRows(analysis, bytes, bytes.length),
    );
    for (const rows of [16, 200, bytes.length]) expect(overviewRows(analysis, windows, rows)).toEqual(overviewRows(analysis, bytes, rows));
  });

  it("keeps batch ticks apart where batches lie closer than the strip's rows, instead of a solid column", async () => {
    const bytes = concat(Array.from({ length: 1500 }, () => producerBatch(1)));
    const analysis = await analyze(bytes);
    expect(analysis.batches.length).toBe(1500);
    const rows = 300;
    const o = overviewRows(analysis, bytes, rows);
    // Every row starts a batch, so ticking each would paint every row.
    expect(o.batchStarts.every((t) => t === 1)).toBe(true);
    const ticked = [...o.ticks.keys()].filter((r) => o.ticks[r]);
    expect(ticked.length).toBeLessThan(rows / 2);
    for (let i = 1; i < ticked.length; i++) expect(ticked[i]! - ticked[i - 1]!).toBeGreaterThanOrEqual(TICK_GAP);
    // Yet no row with a batch start is farther than the gap from a tick: the density still shows.
    for (let r = 0; r < rows; r++) expect(ticked.some((t) => Math.abs(t - r) < TICK_GAP)).toBe(true);
    // Rows between ticks show their kind's colour: most rows of this input are not ticked.
    expect(ticked.length).toBe(Math.ceil(rows / TICK_GAP));
  });
});
