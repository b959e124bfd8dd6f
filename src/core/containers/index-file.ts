/** An index file (`.index`): its 24-byte entries, their own rules, and the cross-check against their `.log`. */
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import type { Analysis } from "../model.ts";
import { Findings } from "./merge.ts";
import type { IndexEntry } from "./types.ts";

/** The whole entries of an index file (a trailing partial entry is left out, as the server does). */
export function decodeIndexEntries(bytes: Uint8Array): IndexEntry[] {
  const r = new ByteReader(bytes);
  const out: IndexEntry[] = [];
  for (let s = 0, i = 0; s + INDEX_ENTRY_SIZE <= bytes.length; s += INDEX_ENTRY_SIZE, i++) {
    out.push({ index: i, start: s, offset: r.u64(s), timestamp: r.u64(s + 8), position: r.u64(s + 16) });
  }
  return out;
}

/** Findings an index file shows alone: entries out of order, a trailing partial entry. */
export function checkIndexAlone(bytes: Uint8Array, entries: readonly IndexEntry[]): Diagnostic[] {
  const f = new Findings();
  for (let i = 1; i < entries.length; i++) {
    const e = entries[i] as IndexEntry;
    const p = entries[i - 1] as IndexEntry;
    if (e.offset < p.offset) f.add("index-not-ascending", e.start, e.start + 8, `entry ${i}: offset ${e.offset} < entry ${i - 1}'s ${p.offset}`);
    if (e.timestamp < p.timestamp)
      f.add("index-not-ascending", e.start + 8, e.start + 16, `entry ${i}: timestamp ${e.timestamp} < entry ${i - 1}'s ${p.timestamp}`);
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
export function crossCheckIndex(entries: readonly IndexEntry[], logSize: number, starts: BatchStarts, logName: string): Diagnostic[] {
  const f = new Findings();
  for (const e of entries) {
    const at = e.position <= BigInt(logSize) ? starts.get(Number(e.position)) : undefined;
    if (!at) {
      const where = e.position >= BigInt(logSize) ? `past the end of the ${logSize}-byte ${logName}` : `not at a batch start in ${logName}`;
      f.add("index-entry-misplaced", e.start + 16, e.start + 24, `entry ${e.index}: position ${e.position} is ${where}`);
      continue;
    }
    if (at.baseOffset !== e.offset)
      f.add(
        "index-entry-mismatch",
        e.start,
        e.start + 8,
        `entry ${e.index}: offset ${e.offset}, the batch at ${e.position} (batch ${at.index}) has base_offset ${at.baseOffset}`,
      );
    if (at.baseTimestamp !== e.timestamp)
      f.add(
        "index-entry-mismatch",
        e.start + 8,
        e.start + 16,
        `entry ${e.index}: timestamp ${e.timestamp}, the batch at ${e.position} (batch ${at.index}) has base_timestamp ${at.baseTimestamp}`,
      );
  }
  return f.list;
}
