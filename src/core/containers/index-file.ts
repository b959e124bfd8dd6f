/** An index file (`.index`): its 24-byte entries, their own rules, and the cross-check against their `.log`. */
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import type { Diagnostic, DiagnosticCode } from "../../format/diagnostics.ts";
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

/** One entry as the checks see it: a single object the loop refills, so millions of entries allocate no objects of their own. */
interface EntryState {
  i: number;
  start: number;
  offset: bigint;
  timestamp: bigint;
  prevOffset: bigint;
  prevTimestamp: bigint;
  position: bigint;
  /** The batch of the `.log` that starts at `position`, if one does (only with a log). */
  at: ReturnType<BatchStarts["get"]>;
  log: IndexLogView | undefined;
}

/** One rule over an entry: its code, the bytes of the entry it marks, when it holds, and its sentence. */
interface EntryCheck {
  readonly code: DiagnosticCode;
  readonly from: number;
  readonly to: number;
  readonly found: (s: EntryState) => boolean;
  readonly text: (s: EntryState) => string;
}

/** The rules of an entry, in the order their findings are listed within it: its offset's, its timestamp's, then its position's. */
const ENTRY_CHECKS: readonly EntryCheck[] = [
  {
    code: "index-not-ascending",
    from: 0,
    to: 8,
    found: (s) => s.offset < s.prevOffset,
    text: (s) => `entry ${s.i}: offset ${s.offset} < entry ${s.i - 1}'s ${s.prevOffset}`,
  },
  {
    code: "index-entry-mismatch",
    from: 0,
    to: 8,
    found: (s) => s.at !== undefined && s.at.baseOffset !== s.offset,
    text: (s) => `entry ${s.i}: offset ${s.offset}, the batch at ${s.position} (batch ${s.at?.index}) has base_offset ${s.at?.baseOffset}`,
  },
  {
    code: "index-not-ascending",
    from: 8,
    to: 16,
    found: (s) => s.timestamp < s.prevTimestamp,
    text: (s) => `entry ${s.i}: timestamp ${s.timestamp} < entry ${s.i - 1}'s ${s.prevTimestamp}`,
  },
  {
    code: "index-entry-mismatch",
    from: 8,
    to: 16,
    found: (s) => s.at !== undefined && s.at.baseTimestamp !== s.timestamp,
    text: (s) => `entry ${s.i}: timestamp ${s.timestamp}, the batch at ${s.position} (batch ${s.at?.index}) has base_timestamp ${s.at?.baseTimestamp}`,
  },
  {
    code: "index-entry-misplaced",
    from: 16,
    to: 24,
    found: (s) => s.log !== undefined && s.at === undefined,
    text: (s) => {
      const log = s.log as IndexLogView;
      const where = s.position >= BigInt(log.size) ? `past the end of the ${log.size}-byte ${log.name}` : `not at a batch start in ${log.name}`;
      return `entry ${s.i}: position ${s.position} is ${where}`;
    },
  },
];

/**
 * Every finding of an index file, in position order in one pass: entries out of order, a trailing
 * partial entry, and with its `.log` the cross-check (the position must start a batch, whose
 * base_offset and base_timestamp the entry repeats). Kept as analyze() keeps diagnostics: the first
 * `max` by position and a count of the rest, so a 1 GiB index of zeros costs no more than a small one:
 * the loop makes no object per entry (a fast allocation rate grows the engine's young generation, and
 * with it the process, by a hundred MiB and more).
 * `extra` (e.g. an orphan index's finding) comes first.
 */
export function checkIndex(entries: IndexEntries, log?: IndexLogView, extra: readonly Diagnostic[] = [], max = DEFAULT_MAX_DIAGNOSTICS): Findings {
  const f = new Findings(max);
  for (const d of extra) f.add(d.code, d.start, d.end, d.message, d.batch, d.frame);
  const size = log ? BigInt(log.size) : 0n;
  const first = entries.length > 0;
  const s: EntryState = {
    i: 0,
    start: 0,
    offset: first ? entries.offset(0) : 0n,
    timestamp: first ? entries.timestamp(0) : 0n,
    prevOffset: 0n,
    prevTimestamp: 0n,
    position: 0n,
    at: undefined,
    log,
  };
  // Entries that repeat a position (an index of zeros has millions) look their batch up once.
  let lookedUp = -1n;
  let found: EntryState["at"] = undefined;
  // Read column by column: an index of single-message batches has an entry per batch, millions of them.
  for (let i = 0; i < entries.length; i++) {
    s.i = i;
    s.start = entries.start(i);
    s.prevOffset = s.offset;
    s.prevTimestamp = s.timestamp;
    s.offset = entries.offset(i);
    s.timestamp = entries.timestamp(i);
    if (log) {
      s.position = entries.position(i);
      if (s.position !== lookedUp) {
        lookedUp = s.position;
        found = s.position <= size ? log.starts.get(Number(s.position)) : undefined;
      }
      s.at = found;
    }
    for (const c of ENTRY_CHECKS) if (c.found(s)) f.addOf(c.code, s.start + c.from, s.start + c.to, c.text, s);
  }
  const rest = entries.fileSize % INDEX_ENTRY_SIZE;
  if (rest > 0)
    f.add("index-trailing-bytes", entries.fileSize - rest, entries.fileSize, `the file ends in a partial entry of ${rest} bytes; the server ignores it`);
  return f;
}
