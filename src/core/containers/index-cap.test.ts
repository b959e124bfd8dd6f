/**
 * An index file's findings are capped as analyze()'s diagnostics are: an index of zeros beside a real
 * `.log` (a finding per entry, millions of them) keeps the first DEFAULT_MAX_DIAGNOSTICS by position and
 * counts the rest, and a paged index (the CLI's) reads exactly what the bytes in memory say.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_DIAGNOSTICS } from "../walk/analyze.ts";
import { analysisViolations } from "../walk/analysis-invariants.ts";
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import { xxh } from "../../../test/helpers.ts";
import { IndexEntries } from "./index-entries.ts";
import { checkIndex } from "./index-file.ts";
import { openInputWith } from "./index.ts";

const HEALTHY = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions/healthy");
const log = new Uint8Array(readFileSync(path.join(HEALTHY, "00000000000000001949.log")));

describe("index findings: capped, first by position", () => {
  it("an index of zeros beside its log (3 MiB: two findings per entry, past the cap) opens, keeps the first by position and counts the rest", () => {
    const index = new Uint8Array(3 << 20);
    const entries = index.length / INDEX_ENTRY_SIZE;
    const o = openInputWith(xxh, index, { name: "00000000000000001949.index", companion: { name: "00000000000000001949.log", bytes: log } });
    const a = o.analysis;
    // Entry 0 points at batch 0, whose base_offset 1949 and base_timestamp differ from 0: two mismatches per entry.
    expect(a.summary.errors).toBe(2 * entries);
    expect(a.diagnostics.length).toBe(DEFAULT_MAX_DIAGNOSTICS);
    expect(a.diagnosticsOmitted).toBe(2 * entries - DEFAULT_MAX_DIAGNOSTICS);
    expect(a.diagnostics.every((d) => d.code === "index-entry-mismatch")).toBe(true);
    // The kept ones are exactly the first: entries 0 .. cap/2 - 1, both fields each.
    const last = a.diagnostics.at(-1);
    expect(last?.start).toBe((DEFAULT_MAX_DIAGNOSTICS / 2 - 1) * INDEX_ENTRY_SIZE + 8);
    expect(analysisViolations(a, index.length, 0, true)).toEqual([]);
  });

  it("a small cap keeps the first findings by position, the trailing partial entry among the counted", () => {
    const index = new Uint8Array(10 * INDEX_ENTRY_SIZE + 5);
    const view = new DataView(index.buffer);
    // Offsets descend from entry 1 on: an index-not-ascending at every entry past the first.
    for (let i = 0; i < 10; i++) view.setBigUint64(i * INDEX_ENTRY_SIZE, BigInt(100 - i), true);
    const f = checkIndex(IndexEntries.of(index), undefined, [], 4);
    expect(f.list.map((d) => d.start)).toEqual([24, 48, 72, 96]);
    expect(f.omitted).toEqual({ errors: 5, warnings: 0, infos: 1 });
  });
});

describe("a paged index reads what the bytes say", () => {
  it("every entry, across page boundaries, and the file size with a partial entry", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120_000 }), fc.integer({ min: 0, max: 23 }), fc.integer(), (count, rest, seed) => {
        const bytes = new Uint8Array(count * INDEX_ENTRY_SIZE + rest);
        let x = seed | 1;
        for (let i = 0; i < bytes.length; i += 97) bytes[i] = (x = (x * 1103515245 + 12345) | 0) & 0xff;
        const whole = IndexEntries.of(bytes);
        let reads = 0;
        const paged = IndexEntries.paged(bytes.length, (into, at) => {
          reads++;
          const got = bytes.subarray(at, at + into.length);
          into.set(got);
          return got.length;
        });
        expect(paged.length).toBe(whole.length);
        expect(paged.fileSize).toBe(bytes.length);
        for (const i of [0, 1, 43_689, 43_690, 43_691, count - 1, Math.floor(count / 2)])
          if (i >= 0 && i < count) expect(paged.at(i), `entry ${i}`).toEqual(whole.at(i));
        const f = (e: IndexEntries) => checkIndex(e).list;
        expect(f(paged)).toEqual(f(whole));
        // One page in memory at a time: a sequential walk reads each page once (plus the spot reads above).
        expect(reads).toBeLessThanOrEqual(2 * Math.ceil(count / 43_690) + 8);
      }),
      { numRuns: 12 },
    );
  });
});

describe("a segment named above u64", () => {
  it("opened alone says its name check cannot be made, instead of skipping it silently", () => {
    const o = openInputWith(xxh, log, { name: "99999999999999999999.log" });
    expect(o.format).toBe("segment");
    expect(o.detectedBy).toMatch(/99999999999999999999 is above u64.*cannot be made/);
    const ok = openInputWith(xxh, log, { name: "00000000000000001949.log" });
    expect(ok.detectedBy).not.toMatch(/above u64/);
  });
});
