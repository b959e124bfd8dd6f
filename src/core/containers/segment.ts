/** A segment file (`.log`): the batch decode with the segment's own rules, and its recovery verdict. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { startOffsetOfName } from "../../format/containers/segment.ts";
import { analyzeWith } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { Findings, mergeFindings } from "./merge.ts";
import { recoverSegmentFrom } from "./recovery.ts";
import { memoryHeaderAt, type HeaderAt } from "./walk.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import type { RecoveryVerdict } from "./types.ts";
import { IndexEntries } from "./index-entries.ts";

/** A decoded segment: the merged analysis and the recovery verdict. */
export interface SegmentResult {
  readonly analysis: Analysis;
  readonly recovery: RecoveryVerdict;
  /** The start offset its name gives, or null for a name that is not `{digits}.log`. */
  readonly startOffset: bigint | null;
  /** Why the name check could not be made though the name is digits (above u64), or null. */
  readonly nameNote?: string | null;
}

/** Why a `{digits}.log` name gives no start offset to check (its number is above u64), or null. */
export function nameCheckImpossible(name: string): string | null {
  const m = /(?:^|[\\/])(\d{1,20})\.(?:log|index)$/.exec(name);
  if (!m || startOffsetOfName(name) !== null) return null;
  return `the name's start offset ${BigInt(m[1] as string)} is above u64's 18446744073709551615, so the segment-name check cannot be made`;
}

/** Batch findings a segment replaces: its offset chain is segment-offset-gap's, an error (containers.md, last paragraph). */
export const SEGMENT_DROPPED_CODES: readonly DiagnosticCode[] = ["offset-discontinuity"];

/** The dropFinding of a segment's batch analysis. */
export const segmentDropFinding = (code: DiagnosticCode): boolean => SEGMENT_DROPPED_CODES.includes(code);

/** Decodes a segment; `entries` are its index's whole entries (empty: no usable index). */
export function openSegment(xxh: Xxh3, bytes: Uint8Array, name: string, entries: IndexEntries = IndexEntries.EMPTY): SegmentResult {
  return segmentOf(analyzeWith(xxh, bytes, { dropFinding: segmentDropFinding }), memoryHeaderAt(bytes), name, entries);
}

/**
 * A segment's result from its batch analysis (made with segmentDropFinding, e.g. streamed) and a
 * reader of its headers: what openSegment() gives for the same bytes, without them in memory.
 */
export function segmentOf(raw: Analysis, headerAt: HeaderAt, name: string, entries: IndexEntries = IndexEntries.EMPTY): SegmentResult {
  const startOffset = startOffsetOfName(name);
  const f = new Findings();
  let prev: { baseOffset: bigint; messageCount: number } | null = null;
  // Read column by column: a segment of single-message batches holds millions.
  const batches = raw.batches;
  for (let i = 0; i < batches.length && batches.hasHeader(i); i++) {
    const baseOffset = batches.headerValue(i, "baseOffset") as bigint;
    const messageCount = batches.headerValue(i, "messageCount") as number;
    const start = batches.start(i);
    const index = batches.index(i);
    if (index === 0 && startOffset !== null && baseOffset !== startOffset) {
      f.add(
        "segment-name-mismatch",
        start + 8,
        start + 16,
        `batch 0: base_offset ${baseOffset}, the file name says the segment starts at ${startOffset}; the server would recover it without an index as empty`,
        0,
      );
    }
    if (prev) {
      const expected: bigint = prev.baseOffset + BigInt(prev.messageCount);
      if (baseOffset !== expected) {
        const what = baseOffset > expected ? `a gap of ${baseOffset - expected}` : `an overlap of ${expected - baseOffset}`;
        f.add(
          "segment-offset-gap",
          start + 8,
          start + 16,
          `batch ${index}: base_offset ${baseOffset}, the chain expects ${expected} (previous ${prev.baseOffset} + ${prev.messageCount}): ${what}`,
          index,
        );
      }
    }
    prev = { baseOffset, messageCount };
  }
  const recovery = recoverSegmentFrom(headerAt, raw, startOffset, entries);
  if (recovery.stopsAt !== null) f.add("recovery-stops", recovery.stopsAt, raw.size, recovery.sentence);
  return { analysis: mergeFindings(raw, f.list), recovery, startOffset, nameNote: nameCheckImpossible(name) };
}
