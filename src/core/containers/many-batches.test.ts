/**
 * A segment written by a producer that sends one message at a time holds a batch per message. Opening
 * one must read the batch table column by column: a BatchModel made for every batch (or a map of them)
 * is what made 1 GiB of them take 12 s and 3 GB on the page.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { buildSegment, planSegment } from "../../../scripts/bench/segment.ts";
import { BatchTable } from "../model/batch-table.ts";
import { openInputWith } from "./index.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { openSegment, segmentDropFinding, segmentOf } from "./segment.ts";
import { analysisHeaderAt, memoryHeaderAt } from "./walk.ts";
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";

const xxh = await loadXxh3();
const plan = planSegment(100, 2 << 20, 1);
const log = buildSegment(xxh, plan);

/** An index with an entry for every `every`-th batch, as the server writes one per index interval. */
function indexOf(analysisStarts: { start: number; baseOffset: bigint; baseTimestamp: bigint }[], every: number): Uint8Array {
  const picked = analysisStarts.filter((_, i) => i % every === 0);
  const out = new Uint8Array(picked.length * INDEX_ENTRY_SIZE);
  const view = new DataView(out.buffer);
  picked.forEach((b, i) => {
    view.setBigUint64(i * INDEX_ENTRY_SIZE, b.baseOffset, true);
    view.setBigUint64(i * INDEX_ENTRY_SIZE + 8, b.baseTimestamp, true);
    view.setBigUint64(i * INDEX_ENTRY_SIZE + 16, BigInt(b.start), true);
  });
  return out;
}

afterEach(() => vi.restoreAllMocks());

describe("a segment of single-message batches", () => {
  it("opens with its index without making an object per batch, and finds what it holds", () => {
    expect(plan.batches).toBeGreaterThan(5000);
    const plain = openInputWith(xxh, log, { name: "00000000000000000000.log" });
    const starts = plain.analysis.batches.map((b) => ({ start: b.start, baseOffset: b.header!.baseOffset, baseTimestamp: b.header!.baseTimestamp }));
    const index = indexOf(starts, 7);
    const at = vi.spyOn(BatchTable.prototype, "at");
    const opened = openInputWith(xxh, log, { name: "00000000000000000000.log", companion: { name: "00000000000000000000.index", bytes: index } });
    const made = at.mock.calls.length;
    at.mockRestore();
    expect(made, "BatchModels made while opening").toBeLessThan(100);
    expect(opened.format).toBe("segment");
    expect(opened.analysis.summary).toMatchObject({ batches: plan.batches, frames: plan.frames, errors: 0, warnings: 0 });
    expect(opened.recovery?.path).toBe("index");
    expect(opened.recovery?.sentence).toMatch(/./);
  });

  it("streamed as the page and the CLI open it (segmentOf over the walk, headers answered from the table), makes no object per batch", () => {
    const raw = analyzeWith(xxh, log, { dropFinding: segmentDropFinding });
    const read = memoryHeaderAt(log);
    let fellBack = 0;
    const at = vi.spyOn(BatchTable.prototype, "at");
    const seg = segmentOf(
      raw,
      analysisHeaderAt(raw, (pos, end) => {
        fellBack++;
        return read(pos, end);
      }),
      "00000000000000000000.log",
    );
    expect(at.mock.calls.length, "BatchModels made while checking the chain and recovering").toBeLessThan(100);
    expect(fellBack, "headers read from the bytes, not the table").toBe(0);
    expect(seg.recovery).toEqual(openSegment(xxh, log, "00000000000000000000.log").recovery);
    expect(seg.recovery.path).toBe("scan");
  });

  it("cross-checks its index against the batch table, and an entry that points into a batch is found", () => {
    const plain = openInputWith(xxh, log, { name: "00000000000000000000.log" });
    const starts = plain.analysis.batches.map((b) => ({ start: b.start, baseOffset: b.header!.baseOffset, baseTimestamp: b.header!.baseTimestamp }));
    const index = indexOf(starts, 3);
    const view = new DataView(index.buffer);
    view.setBigUint64(INDEX_ENTRY_SIZE + 16, BigInt(starts[3]!.start + 3), true);
    view.setBigUint64(2 * INDEX_ENTRY_SIZE, starts[6]!.baseOffset + 1n, true);
    const at = vi.spyOn(BatchTable.prototype, "at");
    const opened = openInputWith(xxh, index, { name: "00000000000000000000.index", companion: { name: "00000000000000000000.log", bytes: log } });
    expect(at.mock.calls.length, "BatchModels made while cross-checking").toBeLessThan(100);
    const found = opened.analysis.diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(found).toEqual([
      expect.stringMatching(/^index-entry-misplaced entry 1: position \d+ is not at a batch start/),
      expect.stringMatching(/^index-entry-mismatch entry 2: offset 7, the batch at \d+ \(batch 6\) has base_offset 6$/),
    ]);
  });

  it("keeps about 100 bytes a batch in its table", () => {
    const { packed } = openInputWith(xxh, log, { name: "00000000000000000000.log" }).analysis.batches;
    const bytes = [packed.positions, packed.words, packed.wide, packed.truncatedBatches].reduce((n, a) => n + a.byteLength, 0);
    expect(bytes / packed.count).toBeLessThanOrEqual(110);
  });
});
