/** An index file (`.index`): its 24-byte entries, their own rules, and the cross-check against their `.log`. */
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { DEFAULT_MAX_DIAGNOSTICS } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { Findings } from "./merge.ts";
import { IndexEntries } from "./index-entries.ts";

/** The whole entries of an index file (a trailing partial entry is left out, as the server does), read in place. */
export function decodeIndexEntries(bytes: Uint8Array): IndexEntries {
  return IndexEntries.of(bytes);
}

/** The batches of a decoded .log by start byte: what an index cross-check needs, kept after the log's bytes are gone. */
export interface BatchStarts {
  /** The batch with a header that starts at byte `start`, if one does. */
  get(start: number): { readonly baseOffset: bigint; readonly baseTimestamp: bigint; readonly index: number } | undefined;
}

/** The batch-start lookup of a segment's analysis: a binary search of its batch table, not a map of every batch. */
export function batchStartsOf(analysis: Analysis): BatchStarts {
  const batches = analysis.batches;
  return {
    get(start) {
      const k = batches.startingAt(start);
      if (k < 0 || !batches.hasHeader(k)) return undefined;
      return {
        baseOffset: batches.headerValue(k, "baseOffset") as bigint,
        baseTimestamp: batches.headerValue(k, "baseTimestamp") as bigint,
        index: batches.index(k),
      };
    },
  };
}

/** The `.log` an index is cross-checked against: its name, size and batch starts. */
export interface IndexLogView {
  readonly name: string;
  readonly size: number;
  readonly starts: BatchStarts;
}

/**
 * Every finding of an index file, in position order in one pass: entries out of order, a trailing
 * partial entry, and with its `.log` the cross-check (the position must start a batch, whose
 * base_offset and base_timestamp the entry repeats). Kept as analyze() keeps diagnostics: the first
 * `max` by position and a count of the rest, so a 1 GiB index of zeros costs no more than a small one.
 * `extra` (e.g. an orphan index's finding) comes first.
 */
export function checkIndex(entries: IndexEntries, log?: IndexLogView, extra: readonly Diagnostic[] = [], max = DEFAULT_MAX_DIAGNOSTICS): Findings {
  const f = new Findings(max);
  for (const d of extra) f.add(d.code, d.start, d.end, d.message, d.batch, d.frame);
  const size = log ? BigInt(log.size) : 0n;
  let offset = entries.length > 0 ? entries.offset(0) : 0n;
  let timestamp = entries.length > 0 ? entries.timestamp(0) : 0n;
  // Read column by column: an index of single-message batches has an entry per batch, millions of them.
  for (let i = 0; i < entries.length; i++) {
    const start = entries.start(i);
    const o = entries.offset(i);
    const t = entries.timestamp(i);
    const prevOffset = offset;
    const prevTimestamp = timestamp;
    offset = o;
    timestamp = t;
    const position = log ? entries.position(i) : 0n;
    const at = log && position <= size ? log.starts.get(Number(position)) : undefined;
    // Within an entry by position: its offset's findings, its timestamp's, then its position's.
    if (o < prevOffset) f.add("index-not-ascending", start, start + 8, () => `entry ${i}: offset ${o} < entry ${i - 1}'s ${prevOffset}`);
    if (log && at && at.baseOffset !== o)
      f.add(
        "index-entry-mismatch",
        start,
        start + 8,
        () => `entry ${i}: offset ${o}, the batch at ${position} (batch ${at.index}) has base_offset ${at.baseOffset}`,
      );
    if (t < prevTimestamp) f.add("index-not-ascending", start + 8, start + 16, () => `entry ${i}: timestamp ${t} < entry ${i - 1}'s ${prevTimestamp}`);
    if (log && at && at.baseTimestamp !== t)
      f.add(
        "index-entry-mismatch",
        start + 8,
        start + 16,
        () => `entry ${i}: timestamp ${t}, the batch at ${position} (batch ${at.index}) has base_timestamp ${at.baseTimestamp}`,
      );
    if (log && !at) {
      const where = position >= size ? `past the end of the ${log.size}-byte ${log.name}` : `not at a batch start in ${log.name}`;
      f.add("index-entry-misplaced", start + 16, start + 24, () => `entry ${i}: position ${position} is ${where}`);
    }
  }
  const rest = entries.fileSize % INDEX_ENTRY_SIZE;
  if (rest > 0)
    f.add("index-trailing-bytes", entries.fileSize - rest, entries.fileSize, `the file ends in a partial entry of ${rest} bytes; the server ignores it`);
  return f;
}
