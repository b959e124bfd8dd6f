/** The two verdict axes on the corpus partitions: what the server does, and what the files' checks found. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPartition, type PartitionSource } from "./index.ts";
import { findingsVerdict, segmentOutcome, verdictOf } from "./verdict.ts";

const PARTITIONS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions");

async function open(dir: string) {
  const at = path.join(PARTITIONS, dir);
  const sources: PartitionSource[] = readdirSync(at).map((name) => ({
    name,
    size: statSync(path.join(at, name)).size,
    read: () => Promise.resolve(new Uint8Array(readFileSync(path.join(at, name)))),
  }));
  return openPartition(sources);
}

describe("verdict axes", () => {
  it("torn-tail: the server truncates the torn bytes at boot, and the files hold 1 error; never 'FAIL' beside 'would load'", async () => {
    const r = await open("torn-tail");
    const torn = r.segments.reduce((n, s) => n + s.size - s.recovery.keptBytes, 0);
    expect(torn).toBeGreaterThan(0);
    expect(r.outcome.kind).toBe("truncates");
    expect(r.outcome.truncatedBytes).toBe(torn);
    expect(r.outcome.words).toBe(`truncates ${torn} bytes at boot`);
    const v = verdictOf(r.summary, r.outcome);
    expect(v.line).toMatch(
      new RegExp(`^server truncates ${torn} bytes at boot \\(.*\\); findings: ${r.summary.errors} errors?, ${r.summary.warnings} warnings?$`),
    );
    expect(v.line).not.toMatch(/FAIL|would load/);
    expect(v.status).toBe(1);
  });

  it("chain-gap: the server refuses it, naming the gap", async () => {
    const r = await open("chain-gap");
    expect(r.outcome.kind).toBe("refuses");
    expect(r.outcome.sentence).toMatch(/^The server refuses it at boot: .*\.log starts at \d+ after .*\.log ends at \d+ \(a gap of \d+\)\.$/);
    expect(r.sentence).toBe(r.outcome.sentence);
    expect(r.verdict).toBe("refused");
  });

  it("healthy: the server loads it and the files are clean", async () => {
    const r = await open("healthy");
    expect(r.outcome.kind).toBe("loads");
    expect(verdictOf(r.summary, r.outcome).line).toMatch(/^server loads it \(3 segments from offset \d+, \d+ messages kept\); findings: clean$/);
  });

  it("index-faults: the segment row counts its index's findings", async () => {
    const r = await open("index-faults");
    const seg = r.segments[0]!;
    const indexErrors = r.diagnostics.filter((d) => d.file === seg.indexName && d.severity === "error").length;
    const logErrors = r.diagnostics.filter((d) => d.file === seg.name && d.severity === "error").length;
    expect(indexErrors).toBeGreaterThan(0);
    expect(seg.errors).toBe(indexErrors + logErrors);
  });

  it("an empty directory and one with no segment are partition-no-segments errors the server refuses", async () => {
    const none = await openPartition([]);
    expect(none.diagnostics.map((d) => [d.code, d.severity, d.file])).toEqual([["partition-no-segments", "error", "."]]);
    expect(none.summary.errors).toBe(1);
    expect(none.outcome.kind).toBe("refuses");
    const pcap = await openPartition([{ name: "x.pcap", size: 4, read: () => Promise.resolve(new Uint8Array(4)) }]);
    expect(pcap.diagnostics.map((d) => d.code)).toEqual(["partition-no-segments"]);
    expect(pcap.files[0]?.skipped).not.toContain("{start:020}");
  });

  it("findings words: clean without errors or warnings (infos are context)", () => {
    expect(findingsVerdict({ errors: 0, warnings: 0, infos: 3 }).words).toBe("clean");
    expect(findingsVerdict({ errors: 1, warnings: 2, infos: 0 }).words).toBe("1 error, 2 warnings");
    expect(verdictOf({ errors: 0, warnings: 1, infos: 0 }, null)).toMatchObject({ line: "findings: 0 errors, 1 warning", status: 0 });
  });

  it("a segment's recovery that keeps everything loads; one that stops truncates the rest", () => {
    const full = { path: "scan", keptBytes: 10, keptMessages: 2, stopsAt: null, reason: null, lastOffset: 1n, sentence: "" } as const;
    expect(segmentOutcome("a.log", full, 10).kind).toBe("loads");
    const torn = segmentOutcome("a.log", { ...full, keptBytes: 4, stopsAt: 4, reason: "header-truncated" }, 10);
    expect(torn).toMatchObject({ kind: "truncates", truncatedBytes: 6, words: "truncates 6 bytes at boot" });
    expect(torn.reasons[0]).toContain("header-truncated");
  });
});
