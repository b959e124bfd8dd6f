/** A segment file (`.log`): the batch decode with the segment's own rules, and its recovery verdict. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { startOffsetOfName } from "../../format/containers/segment.ts";
import { analyzeWith } from "../analyze.ts";
import type { Analysis } from "../model.ts";
import { Findings, mergeFindings } from "./merge.ts";
import { recoverSegment } from "./recovery.ts";
import type { IndexEntry, RecoveryVerdict } from "./types.ts";

/** A decoded segment: the merged analysis and the recovery verdict. */
export interface SegmentResult {
  readonly analysis: Analysis;
  readonly recovery: RecoveryVerdict;
  /** The start offset its name gives, or null for a name that is not `{digits}.log`. */
  readonly startOffset: bigint | null;
}

/** Decodes a segment; `entries` are its index's whole entries (empty: no usable index). */
export function openSegment(xxh: Xxh3, bytes: Uint8Array, name: string, entries: readonly IndexEntry[] = []): SegmentResult {
  // In a segment the offset chain is segment-offset-gap's, an error (containers.md, last paragraph).
  const raw = analyzeWith(xxh, bytes, { dropFinding: (code) => code === "offset-discontinuity" });
  const startOffset = startOffsetOfName(name);
  const f = new Findings();
  let prev: { baseOffset: bigint; messageCount: number } | null = null;
  for (const b of raw.batches) {
    const h = b.header;
    if (!h) break;
    if (b.index === 0 && startOffset !== null && h.baseOffset !== startOffset) {
      f.add("segment-name-mismatch", b.start + 8, b.start + 16, `batch 0: base_offset ${h.baseOffset}, the file name says the segment starts at ${startOffset}; the server would recover it without an index as empty`, 0);
    }
    if (prev) {
      const expected: bigint = prev.baseOffset + BigInt(prev.messageCount);
      if (h.baseOffset !== expected) {
        const what = h.baseOffset > expected ? `a gap of ${h.baseOffset - expected}` : `an overlap of ${expected - h.baseOffset}`;
        f.add("segment-offset-gap", b.start + 8, b.start + 16, `batch ${b.index}: base_offset ${h.baseOffset}, the chain expects ${expected} (previous ${prev.baseOffset} + ${prev.messageCount}): ${what}`, b.index);
      }
    }
    prev = { baseOffset: h.baseOffset, messageCount: h.messageCount };
  }
  const recovery = recoverSegment(bytes, raw, startOffset, entries);
  if (recovery.stopsAt !== null) f.add("recovery-stops", recovery.stopsAt, bytes.length, recovery.sentence);
  return { analysis: mergeFindings(raw, f.list), recovery, startOffset };
}
