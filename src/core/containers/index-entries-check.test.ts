/**
 * checkIndexEntries finds for any span of entries exactly what checkIndex finds for them, so a view that
 * checks only the rows it shows (the page's entries table) agrees with the whole check, wherever the kept
 * findings stop; and the opened index carries the `.log` it was checked against for that view.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import { xxh } from "../../../test/helpers.ts";
import { IndexEntries } from "./index-entries.ts";
import { batchStartsOf, batchStartsOfColumns, checkIndex, checkIndexEntries } from "./index-file.ts";
import { openInputWith } from "./index.ts";
import { openPartition } from "./partition.ts";

const HEALTHY = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions/healthy");
const LOG_NAME = "00000000000000001949.log";
const logBytes = new Uint8Array(readFileSync(path.join(HEALTHY, LOG_NAME)));
const indexBytes = new Uint8Array(readFileSync(path.join(HEALTHY, "00000000000000001949.index")));
const log = { name: LOG_NAME, size: logBytes.length, starts: batchStartsOf(openInputWith(xxh, logBytes, { name: LOG_NAME }).analysis) };

/** The real index of the healthy partition, `extra` entries appended, then bytes overwritten at the given places. */
function mutatedIndex(extra: number, writes: readonly (readonly [number, number])[]): Uint8Array {
  const out = new Uint8Array(indexBytes.length + extra * INDEX_ENTRY_SIZE);
  out.set(indexBytes);
  for (let i = indexBytes.length; i < out.length; i += INDEX_ENTRY_SIZE) out.set(indexBytes.subarray(0, INDEX_ENTRY_SIZE), i);
  for (const [at, value] of writes) out[at % out.length] = value;
  return out;
}

describe("checkIndexEntries: a span's findings are the whole check's for that span", () => {
  it("the healthy partition's own index has none, in any span", () => {
    const entries = IndexEntries.of(indexBytes);
    expect(entries.length).toBeGreaterThan(1);
    expect(checkIndex(entries, log).list).toEqual([]);
    expect(checkIndexEntries(entries, log, 0, entries.length)).toEqual([]);
  });

  it("any mutation of the real index, any span, with and without the log", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (extra, writes, a, b, withLog) => {
          const entries = IndexEntries.of(mutatedIndex(extra, writes));
          const against = withLog ? log : undefined;
          const from = a % (entries.length + 1);
          const to = from + (b % (entries.length + 2 - from));
          const whole = checkIndex(entries, against).list.filter((d) => d.start >= from * INDEX_ENTRY_SIZE && d.start < to * INDEX_ENTRY_SIZE);
          expect(checkIndexEntries(entries, against, from, to)).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds an entry's mismatch far past the kept findings (an index of zeros, a cap of 10)", () => {
    const zeros = new Uint8Array(5000 * INDEX_ENTRY_SIZE);
    const entries = IndexEntries.of(zeros);
    const capped = checkIndex(entries, log, [], 10);
    expect(capped.list.length).toBe(10);
    const far = checkIndexEntries(entries, log, 4321, 4322);
    // Entry 4321 points at batch 0 (position 0), whose base_offset and base_timestamp are not 0.
    expect(far.map((d) => [d.code, d.start, d.end])).toEqual([
      ["index-entry-mismatch", 4321 * INDEX_ENTRY_SIZE, 4321 * INDEX_ENTRY_SIZE + 8],
      ["index-entry-mismatch", 4321 * INDEX_ENTRY_SIZE + 8, 4321 * INDEX_ENTRY_SIZE + 16],
    ]);
  });
});

describe("an opened index carries the log it was checked against", () => {
  it("openInput with the companion .log, and a partition with a findings cap", async () => {
    const zeros = new Uint8Array(300 * INDEX_ENTRY_SIZE);
    const opened = openInputWith(xxh, zeros, { name: "00000000000000001949.index", companion: { name: LOG_NAME, bytes: logBytes } });
    expect(opened.indexLog?.name).toBe(LOG_NAME);
    expect(opened.indexLog?.size).toBe(logBytes.length);
    expect(opened.indexLog?.starts.columns()).toEqual(log.starts.columns());
    // The columns the page gets find what the batch table finds, at every batch start and between them.
    const crossed = batchStartsOfColumns(log.starts.columns());
    for (let at = 0; at <= logBytes.length; at += 7) expect(crossed.find(at) >= 0, `at ${at}`).toBe(log.starts.find(at) >= 0);
    const columns = log.starts.columns();
    expect(columns.starts.length).toBeGreaterThan(1);
    columns.starts.forEach((start, j) => {
      expect(crossed.find(start)).toBe(j);
      expect([crossed.baseOffset(j), crossed.baseTimestamp(j), crossed.batch(j)]).toEqual([
        log.starts.baseOffset(log.starts.find(start)),
        log.starts.baseTimestamp(log.starts.find(start)),
        log.starts.batch(log.starts.find(start)),
      ]);
    });
    expect(openInputWith(xxh, zeros, { name: "00000000000000001949.index" }).indexLog).toBeUndefined();

    const kept: { name: string; findings: number; log: string | undefined }[] = [];
    const sources = [
      { name: LOG_NAME, size: logBytes.length, read: () => Promise.resolve(logBytes) },
      { name: "00000000000000001949.index", size: zeros.length, read: () => Promise.resolve(zeros) },
    ];
    const result = await openPartition(sources, {
      xxh3: xxh,
      maxIndexFindings: 7,
      onFile: (name, o) => void kept.push({ name, findings: o.analysis.diagnostics.length, log: o.indexLog?.name }),
    });
    expect(kept.find((k) => k.name.endsWith(".index"))).toEqual({ name: "00000000000000001949.index", findings: 7, log: LOG_NAME });
    // Every finding is still counted.
    expect(result.summary.errors).toBe(2 * 300);
  });
});
