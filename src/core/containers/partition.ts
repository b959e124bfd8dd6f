/**
 * A partition directory (containers.md "Partition directory"): every `{start:020}.log` with its
 * `.index`, in start-offset order, one segment in memory at a time; the chain across segments,
 * index cross-checks, orphan indexes, empty middle segments; foreign, scratch, huge or unreadable
 * files are listed and skipped. Upstream: core/server/src/segment_recovery.rs (ensure_contiguous_chain).
 */
import { loadXxh3, type Xxh3 } from "../../checksum/xxh3.ts";
import { startOffsetOfName } from "../../format/containers/segment.ts";
import { SEVERITY_OF, type Diagnostic } from "../../format/diagnostics.ts";
import type { Summary } from "../model/model.ts";
import { batchStartsOf, decodeIndexEntries } from "./index-file.ts";
import { Findings, mergeFindings } from "./merge.ts";
import { indexOpenedPaged } from "./opened.ts";
import { openSegment, type SegmentResult } from "./segment.ts";
import type { OpenedInput, RecoveryVerdict } from "./types.ts";
import { IndexEntries } from "./index-entries.ts";
import { detectByName } from "./detect.ts";
import { partitionOutcome, type ServerOutcome } from "./verdict.ts";

/** One file of the directory: its name (relative), size, and a lazy read (called at most once). */
export interface PartitionSource {
  readonly name: string;
  readonly size: number;
  read(): Promise<Uint8Array>;
  /** Why this entry is no regular file (a FIFO, a directory, a symlink loop…), when it is not: it is skipped for that reason. */
  readonly notAFile?: string;
  /** An index file's entries read a page at a time instead of whole (the CLI), so a huge index costs no memory; an index then reaches onFile with empty bytes. */
  readonly pagedEntries?: () => IndexEntries;
}

/** Limits and the per-file hook of openPartition. */
export interface PartitionOptions {
  readonly xxh3?: Xxh3;
  /** Files larger than this are listed and skipped. Default 2 GiB − 1 (what one read can hold). */
  readonly maxFileBytes?: number;
  /** Receives each decoded file while its bytes are still held; keep what you need, the rest is dropped. */
  readonly onFile?: (name: string, opened: OpenedInput, bytes: Uint8Array) => void | Promise<void>;
  /**
   * Decodes a `.log` without reading it whole (the CLI: the file streamed through the kernel, its
   * headers read where recovery walks; see segmentOf()): the SegmentResult, a reason it is unreadable,
   * or null to read it whole after all. A streamed file reaches onFile with empty bytes.
   */
  readonly streamSegment?: (source: PartitionSource, entries: IndexEntries) => Promise<SegmentResult | string | null>;
  /**
   * Findings kept per `.index` (default: as many as analyze() keeps): the page keeps fewer, because its entries
   * table checks the entries it shows itself (checkIndexEntries), and 200,000 kept findings cost a hundred MiB.
   */
  readonly maxIndexFindings?: number;
  /** Receives each skipped file (foreign, scratch, huge, unreadable) in its place in the order. */
  readonly onSkip?: (file: PartitionFileSummary) => void | Promise<void>;
}

/** What the partition keeps of one file after its bytes are gone. */
export interface PartitionFileSummary {
  readonly name: string;
  readonly size: number;
  /** "segment" or "index", or null for a skipped file. */
  readonly format: "segment" | "index" | null;
  /** Why the file was not decoded, or null. */
  readonly skipped: string | null;
  readonly summary: Summary;
}

/** One segment in the chain, for the partition view. */
export interface PartitionSegment {
  readonly name: string;
  readonly indexName: string | null;
  readonly startOffset: bigint;
  readonly size: number;
  readonly batches: number;
  readonly firstOffset: bigint | null;
  readonly lastOffset: bigint | null;
  readonly firstTimestamp: bigint | null;
  readonly lastTimestamp: bigint | null;
  readonly recovery: RecoveryVerdict;
  /** Errors of the segment and of its .index together (a row counts its index's findings). */
  readonly errors: number;
  /** Warnings of the segment and its .index. */
  readonly warnings: number;
  /** Infos of the segment and its .index. */
  readonly infos: number;
}

/** Everything openPartition keeps: per-file summaries, segments, flat diagnostics with `file`, the sum and the verdict. */
export interface PartitionResult {
  readonly files: PartitionFileSummary[];
  readonly segments: PartitionSegment[];
  readonly diagnostics: (Diagnostic & { readonly file: string })[];
  readonly summary: Summary;
  /** "refused" when the server would refuse the partition at boot (a gap, an overlap, an empty non-last segment, no segment at all). */
  readonly verdict: "ok" | "refused";
  /** The server axis (core/containers/verdict.ts): loads, truncates N bytes at boot, or refuses, and why. */
  readonly outcome: ServerOutcome;
  /** outcome.sentence, for the page's verdict line and the JSON. */
  readonly sentence: string;
}

/**
 * How many findings of each file a page keeps in the partition's list (and of a large index, in the worker): the rest
 * are counted, the tables mark every batch and entry. Each 10,000 cost the renderer 15-18 MiB (two copies on the page,
 * a structured clone between): `npm run bench:page -- --index 1024` peaked at 254-257 MiB with 10,000, 239 with 2,000.
 */
export const LISTED_PER_FILE = 2_000;

/**
 * The result with at most `perFile` findings of each file in its list (the first by position; the summary still counts
 * them all): a page holds the shown file's findings a second time, and a 1 GiB index has 200,000 kept.
 */
export function listedPerFile(result: PartitionResult, perFile = LISTED_PER_FILE): PartitionResult {
  const listed = new Map<string, number>();
  const diagnostics = result.diagnostics.filter((d) => {
    const n = listed.get(d.file) ?? 0;
    listed.set(d.file, n + 1);
    return n < perFile;
  });
  return diagnostics.length === result.diagnostics.length ? result : { ...result, diagnostics };
}

const ZERO: Summary = { batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 };
const DEFAULT_MAX = 2 ** 31 - 1;

interface Plan {
  readonly source: PartitionSource;
  readonly start: bigint | null;
  readonly kind: "log" | "index" | "skip";
  readonly why: string;
}

function planOf(sources: readonly PartitionSource[], max: number): { plans: Plan[]; logs: Set<string> } {
  const logs = new Set<string>();
  for (const s of sources) if (/^\d{1,20}\.log$/.test(s.name)) logs.add(s.name.slice(0, -4));
  const plans = sources.map((source): Plan => {
    const n = source.name;
    const start = startOffsetOfName(n);
    if (source.notAFile) return { source, start, kind: "skip", why: source.notAFile };
    if (n.endsWith(".staging")) return { source, start, kind: "skip", why: "a .staging scratch file (deleted at boot)" };
    if (start === null || n.includes("/"))
      return {
        source,
        start,
        kind: "skip",
        why: "not a segment: a segment is named by its start offset in 20 digits, e.g. 00000000000000001000.log, with its .index",
      };
    if (source.size > max) return { source, start, kind: "skip", why: `${source.size} bytes, over the ${max}-byte limit of one read` };
    return { source, start, kind: n.endsWith(".log") ? "log" : "index", why: "" };
  });
  // Start-offset order, a .log before its .index, skipped files last by name.
  plans.sort(
    (a, b) =>
      (a.kind === "skip" ? 1 : 0) - (b.kind === "skip" ? 1 : 0) ||
      (a.start !== null && b.start !== null && a.start !== b.start ? (a.start < b.start ? -1 : 1) : 0) ||
      (a.kind === b.kind ? 0 : a.kind === "log" ? -1 : 1) ||
      a.source.name.localeCompare(b.source.name),
  );
  return { plans, logs };
}

/** Decodes a partition directory one segment at a time. */
export async function openPartition(sources: readonly PartitionSource[], options: PartitionOptions = {}): Promise<PartitionResult> {
  const xxh = options.xxh3 ?? (await loadXxh3());
  const { plans, logs } = planOf(sources, options.maxFileBytes ?? DEFAULT_MAX);
  const files: PartitionFileSummary[] = [];
  const segments: PartitionSegment[] = [];
  const diagnostics: (Diagnostic & { file: string })[] = [];
  const summary = { ...ZERO };
  const refusals: string[] = [];
  const lastLog = [...plans].reverse().find((p) => p.kind === "log")?.source.name;
  const indexByStem = new Map(plans.filter((p) => p.kind === "index").map((p) => [p.source.name.slice(0, -6), p]));
  const done = new Set<string>();
  let prev: PartitionSegment | null = null;

  const record = async (name: string, size: number, format: "segment" | "index", opened: OpenedInput, bytes: Uint8Array): Promise<Summary> => {
    await options.onFile?.(name, opened, bytes);
    const s = opened.analysis.summary;
    for (const k of Object.keys(summary) as (keyof Summary)[]) summary[k] += s[k];
    for (const d of opened.analysis.diagnostics) diagnostics.push({ ...d, file: name });
    files.push({ name, size, format, skipped: null, summary: s });
    return s;
  };
  const skip = async (p: Plan, why: string) => {
    const file: PartitionFileSummary = { name: p.source.name, size: p.source.size, format: null, skipped: why, summary: ZERO };
    files.push(file);
    await options.onSkip?.(file);
  };
  /** An index file's entries and the bytes onFile gets (empty when paged), or why it is unreadable. */
  const readIndex = async (p: Plan): Promise<{ entries: IndexEntries; bytes: Uint8Array } | string> => {
    const paged = p.source.pagedEntries;
    if (paged) {
      try {
        return { entries: paged(), bytes: new Uint8Array(0) };
      } catch (err) {
        return `unreadable: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    const bytes = await read(p);
    return typeof bytes === "string" ? bytes : { entries: decodeIndexEntries(bytes), bytes };
  };
  const read = async (p: Plan): Promise<Uint8Array | string> => {
    try {
      return await p.source.read();
    } catch (err) {
      return `unreadable: ${err instanceof Error ? err.message : String(err)}`;
    }
  };

  for (const p of plans) {
    const name = p.source.name;
    if (done.has(name)) continue;
    if (p.kind === "skip") {
      await skip(p, p.why);
      continue;
    }
    if (p.kind === "index") {
      // Reached only for an index whose .log is absent or skipped: an orphan, deleted at boot.
      const got = await readIndex(p);
      if (typeof got === "string") {
        await skip(p, got);
        continue;
      }
      const { entries, bytes } = got;
      const f = new Findings();
      const orphan = !logs.has(name.slice(0, -6));
      if (orphan) f.add("index-orphan", 0, entries.fileSize, `${name} has no ${name.slice(0, -6)}.log beside it; the server deletes it at boot`);
      const why = orphan ? "auto: an .index without its .log in a partition directory" : "auto: the file name ends in .index (its .log was skipped)";
      await record(name, entries.fileSize, "index", await indexOpenedPaged(entries, why, undefined, f.list, options.maxIndexFindings), bytes);
      continue;
    }
    const stem = name.slice(0, -4);
    const indexPlan = indexByStem.get(stem);
    let indexBytes: Uint8Array | null = null;
    let entries = IndexEntries.EMPTY;
    if (indexPlan) {
      done.add(indexPlan.source.name);
      const got = await readIndex(indexPlan);
      if (typeof got === "string") await skip(indexPlan, got);
      else ({ entries, bytes: indexBytes } = got);
    }
    const streamed = options.streamSegment ? await options.streamSegment(p.source, entries) : null;
    const bytes = streamed === null ? await read(p) : typeof streamed === "string" ? streamed : new Uint8Array(0);
    if (typeof bytes === "string") {
      await skip(p, bytes);
      if (indexBytes && indexPlan) {
        await record(
          indexPlan.source.name,
          entries.fileSize,
          "index",
          await indexOpenedPaged(entries, "auto: the file name ends in .index (its .log could not be read)", undefined, [], options.maxIndexFindings),
          indexBytes,
        );
      }
      continue;
    }
    const seg = streamed !== null && typeof streamed !== "string" ? streamed : openSegment(xxh, bytes, name, entries);
    const size = seg.analysis.size;
    const start = p.start as bigint;
    const f = new Findings();
    const first = seg.analysis.batches.at(0);
    const firstField: [number, number] = first?.header ? [first.start + 8, first.start + 16] : [0, size];
    // An index pointing past its log refuses the boot outright (upstream RecoveredSegmentSizeDivergence): not an empty segment.
    const divergent = seg.recovery.keptBytes === 0 && seg.recovery.reason === "index-entry-misplaced";
    const empty = seg.recovery.keptBytes === 0 && !divergent;
    if (divergent) refusals.push(`${name}: ${seg.recovery.sentence.replace(/^Recovery \([^)]*\): /, "").replace(/\.$/, "")}`);
    if (prev && prev.recovery.keptBytes > 0) {
      const expected = (prev.recovery.lastOffset ?? prev.startOffset - 1n) + 1n;
      if (start !== expected) {
        const what = start > expected ? `a gap of ${start - expected}` : `an overlap of ${expected - start}`;
        f.add(
          "partition-chain-gap",
          firstField[0],
          firstField[1],
          `${name} starts at ${start}, ${prev.name} ends at ${expected - 1n}: ${what}; the server refuses the partition`,
          first?.header ? 0 : null,
        );
        refusals.push(`${name} starts at ${start} after ${prev.name} ends at ${expected - 1n} (${what})`);
      }
    }
    if (empty && name !== lastLog) {
      f.add("partition-empty-segment", 0, size, `${name} recovers as empty but is not the last segment; the server refuses the partition`);
      refusals.push(`${name} is empty but not the last segment`);
    }
    const opened: OpenedInput = {
      format: "segment",
      detectedBy: detectByName(".log")!.detectedBy,
      analysis: mergeFindings(seg.analysis, f.list),
      container: null,
      recovery: seg.recovery,
      entries: null,
      legacy: null,
    };
    const own = await record(name, size, "segment", opened, bytes);
    const table = seg.analysis.batches;
    let firstWithHeader = 0;
    while (firstWithHeader < table.length && !table.hasHeader(firstWithHeader)) firstWithHeader++;
    let lastWithHeader = table.length - 1;
    while (lastWithHeader >= 0 && !table.hasHeader(lastWithHeader)) lastWithHeader--;
    const firstHeader = table.at(firstWithHeader)?.header;
    const segment: PartitionSegment = {
      name,
      indexName: indexBytes ? `${stem}.index` : null,
      startOffset: start,
      size,
      batches: seg.analysis.batches.length,
      firstOffset: firstHeader?.baseOffset ?? null,
      lastOffset: seg.recovery.lastOffset,
      firstTimestamp: firstHeader?.baseTimestamp ?? null,
      lastTimestamp: table.at(lastWithHeader)?.header?.baseTimestamp ?? null,
      recovery: seg.recovery,
      errors: own.errors,
      warnings: own.warnings,
      infos: own.infos,
    };
    // Pair by pair as upstream's ensure_contiguous_chain: after an empty segment the refusal is that segment's, not a gap.
    prev = segment;
    let index: Summary = ZERO;
    if (indexBytes && indexPlan) {
      const starts = batchStartsOf(seg.analysis);
      index = await record(
        indexPlan.source.name,
        entries.fileSize,
        "index",
        await indexOpenedPaged(entries, "auto: the file name ends in .index", { name, size, starts }, [], options.maxIndexFindings),
        indexBytes,
      );
    }
    segments.push({ ...segment, errors: own.errors + index.errors, warnings: own.warnings + index.warnings, infos: own.infos + index.infos });
  }
  if (!plans.some((p) => p.kind === "log")) {
    const what = sources.length === 0 ? "it is empty" : `none of its ${sources.length} entries is a segment`;
    diagnostics.push({
      code: "partition-no-segments",
      severity: SEVERITY_OF["partition-no-segments"],
      start: 0,
      end: 0,
      batch: null,
      frame: null,
      message: `no segment (.log named by its 20-digit start offset) in this directory: ${what}`,
      file: ".",
    });
    summary.errors++;
    refusals.push("the directory holds no segment (.log) file");
  }
  const verdict = refusals.length > 0 ? "refused" : "ok";
  const outcome = partitionOutcome(segments, refusals);
  return { files, segments, diagnostics, summary, verdict, outcome, sentence: outcome.sentence };
}
