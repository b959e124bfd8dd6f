import { readdirSync, readFileSync } from "node:fs";
import { referenceAnalyze } from "../../../test/reference-walk.ts";
import { describe, expect, it } from "vitest";
import { analysisFromWire, analysisToWire } from "./batch-wire.ts";
import { BatchTable, packedBatchBuffers } from "./batch-table.ts";
import { batchTableOf, BatchTableBuilder, concatBatchTables } from "./batch-table-build.ts";
import { CORPUS, SAMPLE_BYTES } from "../walk/walk-compare.test-util.ts";
import type { BatchModel } from "./model.ts";

const corpus = readdirSync(CORPUS)
  .filter((n) => n.endsWith(".bin"))
  .map((n) => new Uint8Array(readFileSync(new URL(n, CORPUS))));
const inputs = [...SAMPLE_BYTES, ...corpus];

describe("the batch table", () => {
  it("gives back every batch analyze() walked, odd ones included, and the accessors agree with the objects", () => {
    let truncated = 0;
    let headerless = 0;
    for (const bytes of inputs) {
      const t = referenceAnalyze(bytes).batches;
      const list = t.toArray();
      truncated += list.filter((b) => b.truncatedFrame).length;
      headerless += list.filter((b) => !b.header || b.computedChecksum === null).length;
      expect(batchTableOf(list).toArray()).toEqual(list);
      list.forEach((b, i) => {
        expect([t.start(i), t.end(i), t.index(i), t.firstFrame(i), t.frameCount(i), t.errors(i), t.hasHeader(i), t.truncatedFrame(i)]).toEqual([
          b.start,
          b.end,
          b.index,
          b.firstFrame,
          b.frameCount,
          b.errors,
          b.header !== null,
          b.truncatedFrame,
        ]);
      });
      // The batch starting at a byte, found with no hint, the right one, or a wrong one; none inside a batch.
      list.forEach((b, i) => {
        if (t.start(i + 1) === b.start) return;
        expect([t.startingAt(b.start), t.startingAt(b.start, i), t.startingAt(b.start, 0)]).toEqual([i, i, i]);
        if (b.end - b.start > 1) expect(t.startingAt(b.start + 1, i)).toBe(-1);
      });
      expect(t.at(-1)).toBeUndefined();
      expect(t.at(t.length)).toBeUndefined();
    }
    // The odd batches were there: cut-off frames, and headers too short or too small to check.
    expect(truncated).toBeGreaterThan(0);
    expect(headerless).toBeGreaterThan(0);
  });

  it("crosses a real structured clone with its buffers transferred, and comes back equal", () => {
    for (const bytes of inputs) {
      const a = referenceAnalyze(bytes);
      const before = a.batches.toArray();
      const wire = analysisToWire(a);
      const crossed = analysisFromWire(structuredClone(wire, { transfer: packedBatchBuffers(wire.batches) }));
      expect(crossed.batches.toArray()).toEqual(before);
      expect({ ...crossed, batches: null }).toEqual({ ...a, batches: null });
    }
    // The shared empty table is copied, never detached by a transfer.
    expect(packedBatchBuffers(BatchTable.EMPTY.packed)).toEqual([]);
  });

  it("keeps a batch header's values exactly, u64 past 2^53 included, over many doublings of its columns", () => {
    const b0 = referenceAnalyze(SAMPLE_BYTES[0]!).batches.at(0) as BatchModel;
    const big: BatchModel[] = [];
    for (let i = 0; i < 1000; i++)
      big.push({
        ...b0,
        index: i,
        start: i * 1000,
        end: i * 1000 + 999,
        header: b0.header && { ...b0.header, baseOffset: 2n ** 64n - 1n - BigInt(i), baseTimestamp: 2n ** 53n + 1n },
        computedChecksum: 2n ** 63n + BigInt(i),
        truncatedFrame: i % 97 === 0 ? { start: i * 1000 + 300, end: i * 1000 + 999, headerComplete: i % 2 === 0 } : null,
      });
    const b = new BatchTableBuilder(1);
    for (const x of big) b.push(x);
    const t = b.finish();
    expect(t.toArray()).toEqual(big);
    // The float the sorts read is Number() of the bigint, past 2^53 too (rounded the same way).
    for (let i = 0; i < t.length; i += 7)
      for (const key of ["partitionId", "baseOffset", "baseTimestamp", "batchLength", "messageCount"] as const)
        expect(t.headerFloat(i, key), `${key} of batch ${i}`).toBe(Number(t.headerValue(i, key)));
  });

  it("joins tables, moves first frames and adds counts, renumbers, as the object versions did", () => {
    const a = referenceAnalyze(SAMPLE_BYTES[0]!).batches;
    const list = a.toArray();
    const joined = concatBatchTables([a, BatchTable.EMPTY, a]);
    expect(joined.toArray()).toEqual([...list, ...list]);
    expect(joined.truncatedFrame(list.length)).toEqual(list[0]!.truncatedFrame);
    const counted = a.withCounts(10, (i) => (i === 1 ? { errors: 2, warnings: 1, infos: 0 } : undefined));
    expect(counted.toArray()).toEqual(
      list.map((b, i) => ({ ...b, firstFrame: b.firstFrame + 10, errors: b.errors + (i === 1 ? 2 : 0), warnings: b.warnings + (i === 1 ? 1 : 0) })),
    );
    expect(a.toArray(), "the table it came from is unchanged").toEqual(list);
    expect(a.withIndexShift(5).toArray()).toEqual(list.map((b) => ({ ...b, index: b.index + 5 })));
  });
});
