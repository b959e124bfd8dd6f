/** An index file (`.index`): its 24-byte entries, their own rules, and the cross-check against their `.log`. */
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import type { Analysis } from "../model.ts";
import { Findings } from "./merge.ts";
import { IndexEntries } from "./index-entries.ts";

/** The whole entries of an index file (a trailing partial entry is left out, as the server does), read in place. */
export function decodeIndexEntries(bytes: Uint8Array): IndexEntries {
  return IndexEntries.of(bytes);
}

/** Findings an index file shows alone: entries out of order, a trailing partial entry. */
export function checkIndexAlone(bytes: Uint8Array, entries: IndexEntries): Diagnostic[] {
  const f = new Findings();
  let offset = entries.length > 0 ? entries.offset(0) : 0n;
  let timestamp = entries.length > 0 ? entries.timestamp(0) : 0n;
  for (let i = 1; i < entries.length; i++) {
    const start = entries.start(i);
    const o = entries.offset(i);
    const t = entries.timestamp(i);
    if (o < offset) f.add("index-not-ascending", start, start + 8, `entry ${i}: offset ${o} < entry ${i - 1}'s ${offset}`);
    if (t < timestamp) f.add("index-not-ascending", start + 8, start + 16, `entry ${i}: timestamp ${t} < entry ${i - 1}'s ${timestamp}`);
    offset = o;
    timestamp = t;
  }
  const rest = bytes.length % INDEX_ENTRY_SIZE;
  if (rest > 0) f.add("index-trailing-bytes", bytes.length - rest, bytes.length, `the file ends in a partial entry of ${rest} bytes; the server ignores it`);
  return f.list;
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

/** Cross-checks every entry against its .log: the position must start a batch, whose base_offset and base_timestamp it repeats. */
export function crossCheckIndex(entries: IndexEntries, logSize: number, starts: BatchStarts, logName: string): Diagnostic[] {
  const f = new Findings();
  const size = BigInt(logSize);
  // Read column by column: an index of single-message batches has an entry per batch, millions of them.
  for (let i = 0; i < entries.length; i++) {
    const start = entries.start(i);
    const position = entries.position(i);
    const at = position <= size ? starts.get(Number(position)) : undefined;
    if (!at) {
      const where = position >= size ? `past the end of the ${logSize}-byte ${logName}` : `not at a batch start in ${logName}`;
      f.add("index-entry-misplaced", start + 16, start + 24, `entry ${i}: position ${position} is ${where}`);
      continue;
    }
    const offset = entries.offset(i);
    if (at.baseOffset !== offset)
      f.add(
        "index-entry-mismatch",
        start,
        start + 8,
        `entry ${i}: offset ${offset}, the batch at ${position} (batch ${at.index}) has base_offset ${at.baseOffset}`,
      );
    const timestamp = entries.timestamp(i);
    if (at.baseTimestamp !== timestamp)
      f.add(
        "index-entry-mismatch",
        start + 8,
        start + 16,
        `entry ${i}: timestamp ${timestamp}, the batch at ${position} (batch ${at.index}) has base_timestamp ${at.baseTimestamp}`,
      );
  }
  return f.list;
}
