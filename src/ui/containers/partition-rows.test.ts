/** The partition view's rows from real partition folders (the public container corpus) through the real openPartition. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { openPartition, type PartitionSource } from "../../core/containers/index.ts";
import { decodeIndexEntries } from "../../core/containers/index-file.ts";
import { entryRows, otherFiles, segmentRows } from "./partition-rows.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";

const PARTITIONS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions");

function sources(dir: string): PartitionSource[] {
  return readdirSync(path.join(PARTITIONS, dir)).map((name) => {
    const file = path.join(PARTITIONS, dir, name);
    return { name, size: statSync(file).size, read: () => Promise.resolve(new Uint8Array(readFileSync(file))) };
  });
}

describe("segment rows", () => {
  test("a healthy partition: ranges chain, every index agrees, every verdict is ok", async () => {
    const rows = segmentRows(await openPartition(sources("healthy")));
    expect(rows.map((r) => r.name)).toEqual(["00000000000000001949.log", "00000000000000001963.log", "00000000000000001973.log"]);
    expect(rows[0]).toMatchObject({ offsets: "1949..1962", size: 2032, verdict: "ok", tone: "ok", chain: "first segment", chainOk: true, indexOk: true });
    expect(rows[1]!.chain).toBe("follows 1962 ✓");
    expect(rows[0]!.indexCheck).toBe("2 entries agree ✓");
    expect(rows[0]!.times).toMatch(/^\d{4}-\d\d-\d\dT.* \.\. \d{4}-/);
    for (const r of rows) expect(r.recovery).toMatch(/^Recovery/);
  });

  test("a chain gap marks the later segment with the core's message", async () => {
    const rows = segmentRows(await openPartition(sources("chain-gap")));
    expect(rows[1]).toMatchObject({ chainOk: false, verdict: "1 error", tone: "bad" });
    expect(rows[1]!.chain).toContain("a gap of 2");
  });

  test("index faults name their codes; a torn tail says recovery stops", async () => {
    expect(segmentRows(await openPartition(sources("index-faults")))[0]).toMatchObject({
      indexOk: false,
      indexCheck: "index-entry-misplaced, index-entry-mismatch",
    });
    const torn = segmentRows(await openPartition(sources("torn-tail")));
    expect(torn[2]!.verdict).toBe("1 error · recovery stops");
  });

  test("an orphan index is listed outside the chain with why", async () => {
    expect(otherFiles(await openPartition(sources("name-and-orphan")))).toEqual([
      { name: "00000000000000002449.index", size: 72, why: "an .index without its .log (deleted at boot)" },
    ]);
  });

  test("a foreign file is listed with the core's reason", async () => {
    const result = await openPartition([...sources("healthy"), { name: "notes.txt", size: 3, read: () => Promise.resolve(Uint8Array.of(1, 2, 3)) }]);
    expect(otherFiles(result)).toEqual([
      { name: "notes.txt", size: 3, why: "its name is not a segment's or an index's: digits, then .log or .index (as 00000000000000000000.log)" },
    ]);
  });
});

describe("entry rows", () => {
  test("each entry carries the findings on its 24 bytes", async () => {
    const result = await openPartition(sources("index-faults"));
    const idx = new Uint8Array(readFileSync(path.join(PARTITIONS, "index-faults", "00000000000000001949.index")));
    const rows = entryRows(
      decodeIndexEntries(idx),
      result.diagnostics.filter((d) => d.file === "00000000000000001949.index"),
    );
    expect(rows.map((r) => r.check)).toEqual(["✓", "index-entry-misplaced", "index-entry-mismatch", "✓"]);
    expect(rows[0]).toMatchObject({ index: 0, start: 0, offset: "1949", position: 0, ok: true });
  });
});

describe("entry rows of a large index", () => {
  test("a page of rows is the same slice of the whole table, findings on every entry they touch, long ones too", () => {
    const bytes = new Uint8Array(5000 * 24);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 5000; i++) {
      view.setBigUint64(i * 24, BigInt(i), true);
      view.setBigUint64(i * 24 + 8, 1_700_000_000_000_000n + BigInt(i), true);
      view.setBigUint64(i * 24 + 16, BigInt(i * 404), true);
    }
    const entries = decodeIndexEntries(bytes);
    const finding = (code: string, start: number, end: number, severity: "error" | "warning" | "info" = "error"): Diagnostic =>
      ({ code, severity, start, end, batch: null, frame: null, message: "" }) as unknown as Diagnostic;
    const findings = [
      finding("index-entry-mismatch", 7 * 24, 7 * 24 + 8),
      finding("index-entry-misplaced", 4321 * 24 + 16, 4321 * 24 + 24),
      finding("index-not-ascending", 4999 * 24 + 8, 4999 * 24 + 16, "warning"),
      finding("index-trailing-bytes", 2000 * 24 - 4, 2003 * 24),
      finding("some-info", 10 * 24, 10 * 24 + 8, "info"),
    ];
    const whole = entryRows(entries, findings);
    expect(whole.filter((r) => !r.ok).map((r) => [r.index, r.check])).toEqual([
      [7, "index-entry-mismatch"],
      [1999, "index-trailing-bytes"],
      [2000, "index-trailing-bytes"],
      [2001, "index-trailing-bytes"],
      [2002, "index-trailing-bytes"],
      [4321, "index-entry-misplaced"],
      [4999, "index-not-ascending"],
    ]);
    for (const first of [0, 1500, 4300, 4990]) expect(entryRows(entries, findings, first, 500)).toEqual(whole.slice(first, first + 500));
  });
});
