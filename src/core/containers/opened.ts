/**
 * The OpenedInput of a segment or an index file from their parts, so a caller that streams the
 * `.log` (the CLI) and openInput() on bytes in memory build the very same result.
 */
import type { Diagnostic } from "../../format/diagnostics.ts";
import { checkIndex, checkIndexPaged, type IndexLogView } from "./index-file.ts";
import { IndexEntries } from "./index-entries.ts";
import { emptyAnalysis, mergeFindings, type Findings } from "./merge.ts";
import type { SegmentResult } from "./segment.ts";
import type { OpenedInput } from "./types.ts";

/** A decoded segment as an OpenedInput; `indexName` names the companion index recovery read. */
export function segmentOpened(seg: SegmentResult, detectedBy: string, indexName?: string): OpenedInput {
  const withIndex = indexName === undefined ? detectedBy : `${detectedBy}; recovery reads ${indexName}`;
  const why = seg.nameNote ? `${withIndex}; ${seg.nameNote}` : withIndex;
  return { format: "segment", detectedBy: why, analysis: seg.analysis, recovery: seg.recovery, container: null, entries: null, legacy: null };
}

/** The `.log` an index is cross-checked against: its name, size and batch starts (batchStartsOf its analysis). */
export type IndexLog = IndexLogView;

/**
 * An index file (its bytes, or its entries read in pages) as an OpenedInput, cross-checked against its
 * `.log` when given; `extra` findings (an orphan's) go first. `detectedBy` is used as given when `log` is absent.
 */
export function indexOpened(
  index: Uint8Array | IndexEntries,
  detectedBy: string,
  log?: IndexLog,
  extra: readonly Diagnostic[] = [],
  maxFindings?: number,
): OpenedInput {
  const entries = index instanceof IndexEntries ? index : IndexEntries.of(index);
  return indexOpenedWith(entries, detectedBy, checkIndex(entries, log, extra, maxFindings), log);
}

/** indexOpened for entries whose host fills their pages ahead (checkIndexPaged awaits each page). */
export async function indexOpenedPaged(
  entries: IndexEntries,
  detectedBy: string,
  log?: IndexLog,
  extra: readonly Diagnostic[] = [],
  maxFindings?: number,
): Promise<OpenedInput> {
  return indexOpenedWith(entries, detectedBy, await checkIndexPaged(entries, log, extra, maxFindings), log);
}

function indexOpenedWith(entries: IndexEntries, detectedBy: string, findings: Findings, log: IndexLog | undefined): OpenedInput {
  const why = log ? `${detectedBy}; cross-checked against ${log.name}` : detectedBy;
  return {
    format: "index",
    detectedBy: why,
    analysis: mergeFindings(emptyAnalysis(entries.fileSize), findings),
    entries,
    container: { format: "index", start: 0, end: entries.fileSize, fields: [] },
    recovery: null,
    legacy: null,
    ...(log ? { indexLog: log } : {}),
  };
}
