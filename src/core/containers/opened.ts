/**
 * The OpenedInput of a segment or an index file from their parts, so a caller that streams the
 * `.log` (the CLI) and openInput() on bytes in memory build the very same result.
 */
import { checkIndexAlone, crossCheckIndex, decodeIndexEntries, type BatchStarts } from "./index-file.ts";
import { emptyAnalysis, mergeFindings } from "./merge.ts";
import type { SegmentResult } from "./segment.ts";
import type { OpenedInput } from "./types.ts";

/** A decoded segment as an OpenedInput; `indexName` names the companion index recovery read. */
export function segmentOpened(seg: SegmentResult, detectedBy: string, indexName?: string): OpenedInput {
  const why = indexName === undefined ? detectedBy : `${detectedBy}; recovery reads ${indexName}`;
  return { format: "segment", detectedBy: why, analysis: seg.analysis, recovery: seg.recovery, container: null, entries: null, legacy: null };
}

/** The `.log` an index is cross-checked against: its name, size and batch starts (batchStartsOf its analysis). */
export interface IndexLog {
  readonly name: string;
  readonly size: number;
  readonly starts: BatchStarts;
}

/** An index file's bytes as an OpenedInput, cross-checked against its `.log` when given. */
export function indexOpened(bytes: Uint8Array, detectedBy: string, log?: IndexLog): OpenedInput {
  const entries = decodeIndexEntries(bytes);
  const findings = checkIndexAlone(bytes, entries);
  if (log) findings.push(...crossCheckIndex(entries, log.size, log.starts, log.name));
  const why = log ? `${detectedBy}; cross-checked against ${log.name}` : detectedBy;
  return {
    format: "index",
    detectedBy: why,
    analysis: mergeFindings(emptyAnalysis(bytes.length), findings),
    entries,
    container: { format: "index", start: 0, end: bytes.length, fields: [] },
    recovery: null,
    legacy: null,
  };
}
