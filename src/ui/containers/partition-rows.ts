/** Pure text for the partition view: one row per segment (ranges, sizes, verdicts), the chain between segments, the index checks. */
import type { IndexEntries, PartitionResult, PartitionSegment } from "../../core/containers/index.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { timeText } from "../../format/values.ts";
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import { partitionPoint } from "../../lib/binary-search.ts";
import { findingsVerdict, segmentOutcome } from "../../core/containers/verdict.ts";

/** One segment as the partition view lists it. */
export interface SegmentRow {
  readonly name: string;
  readonly indexName: string | null;
  /** "1949..1962" (first..last message offset), or "empty". */
  readonly offsets: string;
  /** "2025-11-30T…Z .. 2025-11-30T…Z" of the first and last batch's base_timestamp, or "–". */
  readonly times: string;
  readonly size: number;
  readonly batches: number;
  /** The server axis (core/containers/verdict.ts): "loads it", "truncates 100 bytes at boot", "refuses it at boot". */
  readonly server: string;
  readonly serverTone: "ok" | "warn" | "bad";
  /** The findings axis of the segment and its .index: "clean" or "1 error, 0 warnings". */
  readonly findings: string;
  /** Both axes: "ok" only when the server loads it whole and nothing was found. */
  readonly tone: "ok" | "bad";
  /** The recovery sentence of the core. */
  readonly recovery: string;
  /** How this segment follows the previous one: "first", "follows 1962 ✓", or the chain-gap message. */
  readonly chain: string;
  readonly chainOk: boolean;
  /** Index cross-check: "no index", "2 entries checked ✓", or the codes found. */
  readonly indexCheck: string;
  readonly indexOk: boolean;
}

const time = (t: bigint | null): string => (t === null ? "–" : timeText(t, { outOfRange: String }));

/** The rows of the partition view's segment table, in chain order. */
export function segmentRows(result: PartitionResult): SegmentRow[] {
  const byFile = new Map<string, (Diagnostic & { file: string })[]>();
  for (const d of result.diagnostics) {
    const list = byFile.get(d.file) ?? [];
    list.push(d);
    byFile.set(d.file, list);
  }
  const entriesOf = (name: string | null) => (name ? result.files.find((f) => f.name === name) : undefined);
  return result.segments.map((s: PartitionSegment, i): SegmentRow => {
    const own = byFile.get(s.name) ?? [];
    const gap = own.find((d) => d.code === "partition-chain-gap" || d.code === "partition-empty-segment");
    const prev = result.segments[i - 1];
    const indexFindings = (s.indexName ? (byFile.get(s.indexName) ?? []) : []).filter((d) => d.severity !== "info");
    const indexFile = entriesOf(s.indexName);
    const outcome = segmentOutcome(s.name, s.recovery, s.size);
    const found = findingsVerdict(s);
    return {
      name: s.name,
      indexName: s.indexName,
      offsets: s.firstOffset === null || s.lastOffset === null ? "empty" : `${s.firstOffset}..${s.lastOffset}`,
      times: s.firstTimestamp === null ? "–" : `${time(s.firstTimestamp)} .. ${time(s.lastTimestamp)}`,
      size: s.size,
      batches: s.batches,
      server: outcome.words,
      serverTone: outcome.kind === "loads" ? "ok" : outcome.kind === "truncates" ? "warn" : "bad",
      findings: found.words,
      tone: found.clean && outcome.kind === "loads" ? "ok" : "bad",
      recovery: s.recovery.sentence,
      chain: gap ? gap.message : !prev ? "first segment" : `follows ${prev.lastOffset ?? "an empty segment"} ✓`,
      chainOk: !gap,
      indexCheck: !s.indexName
        ? "no index"
        : indexFindings.length > 0
          ? [...new Set(indexFindings.map((d) => d.code))].join(", ")
          : `${indexFile ? Math.floor(indexFile.size / 24) : 0} entries agree ✓`,
      indexOk: indexFindings.length === 0,
    };
  });
}

/** The files the partition did not decode (foreign, scratch, huge, unreadable) and orphan indexes, with why. */
export function otherFiles(result: PartitionResult): { name: string; size: number; why: string }[] {
  const segments = new Set(result.segments.flatMap((s) => [s.name, s.indexName ?? ""]));
  return result.files
    .filter((f) => !segments.has(f.name))
    .map((f) => ({
      name: f.name,
      size: f.size,
      why: f.skipped ?? (f.format === "index" ? "an .index without its .log (deleted at boot)" : `read as ${f.format ?? "?"}`),
    }));
}

/** Height of an index entry's row in px (IndexEntryRows; the CSS keeps its cells within it). */
export const ENTRY_ROW_HEIGHT = 26;

/** One index entry as the entries table lists it; `check` names the findings on its bytes, or "✓". */
export interface EntryRow {
  readonly index: number;
  readonly start: number;
  readonly offset: string;
  readonly timestamp: string;
  readonly position: number;
  readonly check: string;
  readonly ok: boolean;
}

// The findings sorted by start, so those on an entry are found by binary search, plus the few longer than an
// entry, which may begin entries before it; made once per list of findings, not per page of rows.
const problemsCache = new WeakMap<readonly Diagnostic[], { byStart: Diagnostic[]; long: Diagnostic[] }>();
function problemsOf(findings: readonly Diagnostic[]): { byStart: Diagnostic[]; long: Diagnostic[] } {
  let got = problemsCache.get(findings);
  if (!got) {
    const byStart = findings.filter((d) => d.severity !== "info").sort((a, b) => a.start - b.start);
    got = { byStart, long: byStart.filter((d) => d.end - d.start > INDEX_ENTRY_SIZE) };
    problemsCache.set(findings, got);
  }
  return got;
}

/**
 * The rows first .. first+count−1 of the index entries table: each entry with the index file's findings
 * on its 24 bytes. Only the rows shown are made: an index of a segment of single-message batches has an
 * entry per batch, millions of them, and so may its findings be.
 */
export function entryRows(entries: IndexEntries, findings: readonly Diagnostic[], first = 0, count = entries.length): EntryRow[] {
  const { byStart, long } = problemsOf(findings);
  const out: EntryRow[] = [];
  for (const e of entries.slice(first, first + count)) {
    const end = e.start + INDEX_ENTRY_SIZE;
    const on = (d: Diagnostic): boolean => d.start < end && Math.max(d.end, d.start + 1) > e.start;
    const own = long.filter(on);
    for (let k = partitionPoint(0, byStart.length, (j) => (byStart[j] as Diagnostic).start < e.start - INDEX_ENTRY_SIZE); k < byStart.length; k++) {
      const d = byStart[k] as Diagnostic;
      if (d.start >= end) break;
      if (on(d) && !own.includes(d)) own.push(d);
    }
    out.push({
      index: e.index,
      start: e.start,
      offset: e.offset.toString(),
      timestamp: `${e.timestamp} (${time(e.timestamp)})`,
      position: Number(e.position),
      check: own.length > 0 ? [...new Set(own.map((d) => d.code))].join(", ") : "✓",
      ok: own.length === 0,
    });
  }
  return out;
}
