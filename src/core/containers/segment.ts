/** A segment file (`.log`): the batch decode with the segment's own rules, and its recovery verdict. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { startOffsetOfName } from "../../format/containers/segment.ts";
import { analyzeWith } from "../analyze.ts";
import type { Analysis } from "../model.ts";
import { Findings, mergeFindings } from "./merge.ts";
import { recoverSegmentFrom } from "./recovery.ts";
import { memoryHeaderAt, type HeaderAt } from "./walk.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import type { IndexEntry, RecoveryVerdict } from "./types.ts";

/** A decoded segment: the merged analysis and the recovery verdict. */
export interface SegmentResult {
  readonly analysis: Analysis;
  readonly recovery: RecoveryVerdict;
  /** The start offset its name gives, or null for a name that is not `{digits}.log`. */
  readonly startOffset: bigint | null;
}

/** Batch findings a segment replaces: its offset chain is segment-offset-gap's, an error (containers.md, last paragraph). */
export const SEGMENT_DROPPED_CODES: readonly DiagnosticCode[] = ["offset-discontinuity"];

/** The dropFinding of a segment's batch analysis. */
export const segmentDropFinding = (code: DiagnosticCode): boolean => SEGMENT_DROPPED_CODES.includes(code);

/** Decodes a segment; `entries` are its index's whole entries (empty: no usable index). */
export function openSegment(xxh: Xxh3, bytes: Uint8Array, name: string, entries: readonly IndexEntry[] = []): SegmentResult {
  return segmentOf(analyzeWith(xxh, bytes, { dropFinding: segmentDropFinding }), memoryHeaderAt(bytes), name, entries);
}

/**
 * A segment's result from its batch analysis (made with segmentDropFinding, e.g. streamed) and a
 * reader of its headers: what openSegment() gives for the same bytes, without them in memory.
 */
export function segmentOf(raw: Analysis, headerAt: HeaderAt, name: string, entries: readonly IndexEntry[] = []): SegmentResult {
  const startOffset = startOffsetOfName(name);
  const f = new Findings();
  let prev: { baseOffset: bigint; messageCount: number } | null = null;
  for (const b of raw.batches) {
    const h = b.header;
    if (!h) break;
    if (b.index === 0 && startOffset !== null && h.baseOffset !== startOffset) {
      f.add(
        "segment-name-mismatch",
        b.start + 8,
        b.start + 16,
        `batch 0: base_offset ${h.baseOffset}, the file name says the segment starts at ${startOffset}; the server would recover it without an index as empty`,
        0,
      );
    }
    if (prev) {
      const expected: bigint = prev.baseOffset + BigInt(prev.messageCount);
      if (h.baseOffset !== expected) {
        const what = h.baseOffset > expected ? `a gap of ${h.baseOffset - expected}` : `an overlap of ${expected - h.baseOffset}`;
        f.add(
          "segment-offset-gap",
          b.start + 8,
          b.start + 16,
          `batch ${b.index}: base_offset ${h.baseOffset}, the chain expects ${expected} (previous ${prev.baseOffset} + ${prev.messageCount}): ${what}`,
          b.index,
        );
      }
    }
    prev = { baseOffset: h.baseOffset, messageCount: h.messageCount };
  }
  const recovery = recoverSegmentFrom(headerAt, raw, startOffset, entries);
  if (recovery.stopsAt !== null) f.add("recovery-stops", recovery.stopsAt, raw.size, recovery.sentence);
  return { analysis: mergeFindings(raw, f.list), recovery, startOffset };
}
