/** An index file (`.index`): its 24-byte entries, their own rules, and the cross-check against their `.log`. */
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import type { Diagnostic, DiagnosticCode } from "../../format/diagnostics.ts";
import { DEFAULT_MAX_DIAGNOSTICS } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { Findings } from "./merge.ts";
import { IndexEntries, PAGE_ENTRIES } from "./index-entries.ts";
import type { BatchStartColumns, BatchStarts, IndexLogView } from "./types.ts";

export type { BatchStartColumns, BatchStarts, IndexLogView } from "./types.ts";

/** The whole entries of an index file (a trailing partial entry is left out, as the server does), read in place. */
export function decodeIndexEntries(bytes: Uint8Array): IndexEntries {
  return IndexEntries.of(bytes);
}

/** The batch starts of a segment's analysis, looked up in its batch table (a binary search, no copy). */
export function batchStartsOf(analysis: Analysis): BatchStarts {
  const table = analysis.batches;
  return {
    find: (start) => {
      const k = table.startingAt(start);
      return k >= 0 && table.hasHeader(k) ? k : -1;
    },
    baseOffset: (k) => table.headerValue(k, "baseOffset") as bigint,
    baseTimestamp: (k) => table.headerValue(k, "baseTimestamp") as bigint,
    batch: (k) => table.index(k),
    columns: () => {
      const kept: number[] = [];
      for (let k = 0; k < table.length; k++) if (table.hasHeader(k)) kept.push(k);
      const out = {
        starts: Float64Array.from(kept, (k) => table.start(k)),
        baseOffsets: new BigUint64Array(kept.length),
        baseTimestamps: new BigUint64Array(kept.length),
        batches: Uint32Array.from(kept, (k) => table.index(k)),
      };
      kept.forEach((k, j) => {
        out.baseOffsets[j] = table.headerValue(k, "baseOffset") as bigint;
        out.baseTimestamps[j] = table.headerValue(k, "baseTimestamp") as bigint;
      });
      return out;
    },
  };
}

/** The batch starts that crossed from another thread as columns, looked up by binary search. */
export function batchStartsOfColumns(columns: BatchStartColumns): BatchStarts {
  const { starts } = columns;
  return {
    find: (start) => {
      let lo = 0;
      let hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((starts[mid] as number) < start) lo = mid + 1;
        else hi = mid;
      }
      return lo < starts.length && starts[lo] === start ? lo : -1;
    },
    baseOffset: (j) => columns.baseOffsets[j] as bigint,
    baseTimestamp: (j) => columns.baseTimestamps[j] as bigint,
    batch: (j) => columns.batches[j] as number,
    columns: () => columns,
  };
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
  /** Where the batch of the `.log` that starts at `position` is in the log's starts, or -1 (always -1 without a log). */
  at: number;
  /** That batch's base_offset and base_timestamp, read once per position looked up (0n when none). */
  atOffset: bigint;
  atTimestamp: bigint;
  log: IndexLogView | undefined;
}

const baseOffsetAt = (s: EntryState): bigint => s.atOffset;
const baseTimestampAt = (s: EntryState): bigint => s.atTimestamp;
const batchAt = (s: EntryState): number => (s.log as IndexLogView).starts.batch(s.at);

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
    found: (s) => s.at >= 0 && baseOffsetAt(s) !== s.offset,
    text: (s) => `entry ${s.i}: offset ${s.offset}, the batch at ${s.position} (batch ${batchAt(s)}) has base_offset ${baseOffsetAt(s)}`,
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
    found: (s) => s.at >= 0 && baseTimestampAt(s) !== s.timestamp,
    text: (s) => `entry ${s.i}: timestamp ${s.timestamp}, the batch at ${s.position} (batch ${batchAt(s)}) has base_timestamp ${baseTimestampAt(s)}`,
  },
  {
    code: "index-entry-misplaced",
    from: 16,
    to: 24,
    found: (s) => s.log !== undefined && s.at < 0,
    text: (s) => {
      const log = s.log as IndexLogView;
      const where = s.position >= BigInt(log.size) ? `past the end of the ${log.size}-byte ${log.name}` : `not at a batch start in ${log.name}`;
      return `entry ${s.i}: position ${s.position} is ${where}`;
    },
  },
];

/**
 * Runs the entry rules over entries [from, to) into `f`, in position order. Entry `from` is compared with
 * the entry before it, so a view that checks only the rows it shows (the page's entries table) finds what
 * the whole check finds for them. The loop makes no object per entry (a fast allocation rate grows the
 * engine's young generation, and with it the process, by a hundred MiB and more).
 */
function checkEntriesInto(f: Findings, entries: IndexEntries, log: IndexLogView | undefined, from: number, to: number): void {
  const end = Math.min(to, entries.length);
  const begin = Math.max(0, from);
  if (begin >= end) return;
  const size = log ? BigInt(log.size) : 0n;
  const before = begin > 0 ? begin - 1 : begin;
  const s: EntryState = {
    i: 0,
    start: 0,
    offset: entries.offset(before),
    timestamp: entries.timestamp(before),
    prevOffset: 0n,
    prevTimestamp: 0n,
    position: 0n,
    at: -1,
    atOffset: 0n,
    atTimestamp: 0n,
    log,
  };
  // Entries that repeat a position (an index of zeros has millions) look their batch up once.
  let lookedUp = -1n;
  // Read column by column: an index of single-message batches has an entry per batch, millions of them.
  for (let i = begin; i < end; i++) {
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
        s.at = s.position <= size ? log.starts.find(Number(s.position)) : -1;
        s.atOffset = s.at >= 0 ? log.starts.baseOffset(s.at) : 0n;
        s.atTimestamp = s.at >= 0 ? log.starts.baseTimestamp(s.at) : 0n;
      }
    }
    for (const c of ENTRY_CHECKS) if (c.found(s)) f.addOf(c.code, s.start + c.from, s.start + c.to, c.text, s);
  }
}

/**
 * Every finding of an index file, in position order in one pass: entries out of order, a trailing
 * partial entry, and with its `.log` the cross-check (the position must start a batch, whose
 * base_offset and base_timestamp the entry repeats). Kept as analyze() keeps diagnostics: the first
 * `max` by position and a count of the rest, so a 1 GiB index of zeros costs no more than a small one.
 * `extra` (e.g. an orphan index's finding) comes first.
 */
export function checkIndex(entries: IndexEntries, log?: IndexLogView, extra: readonly Diagnostic[] = [], max = DEFAULT_MAX_DIAGNOSTICS): Findings {
  const f = findingsWith(extra, max);
  checkEntriesInto(f, entries, log, 0, entries.length);
  return withTrailingBytes(f, entries);
}

/**
 * checkIndex for entries whose host fills their pages ahead (IndexEntries.prefetched: a worker reading the File's
 * byte stream into reused buffers, where a synchronous read would leave a new buffer of garbage per page): the same
 * rows over the same entries, a page's span at a time, each awaited ready with the entry before it.
 */
export async function checkIndexPaged(
  entries: IndexEntries,
  log?: IndexLogView,
  extra: readonly Diagnostic[] = [],
  max = DEFAULT_MAX_DIAGNOSTICS,
): Promise<Findings> {
  if (!entries.prefetched) return checkIndex(entries, log, extra, max);
  const f = findingsWith(extra, max);
  for (let from = 0; from < entries.length; from += PAGE_ENTRIES) {
    const to = Math.min(entries.length, from + PAGE_ENTRIES);
    await entries.ready(Math.max(0, from - 1), to);
    checkEntriesInto(f, entries, log, from, to);
  }
  return withTrailingBytes(f, entries);
}

function findingsWith(extra: readonly Diagnostic[], max: number): Findings {
  const f = new Findings(max);
  for (const d of extra) f.add(d.code, d.start, d.end, d.message, d.batch, d.frame);
  return f;
}

function withTrailingBytes(f: Findings, entries: IndexEntries): Findings {
  const rest = entries.fileSize % INDEX_ENTRY_SIZE;
  if (rest > 0)
    f.add("index-trailing-bytes", entries.fileSize - rest, entries.fileSize, `the file ends in a partial entry of ${rest} bytes; the server ignores it`);
  return f;
}

/**
 * The entry findings of entries [from, to) alone, as checkIndex finds them: what a view shows beside rows
 * it shows, however far past the kept findings they lie. A paged index must have entries [from − 1, to) at hand.
 */
export function checkIndexEntries(entries: IndexEntries, log: IndexLogView | undefined, from: number, to: number): readonly Diagnostic[] {
  const f = new Findings();
  checkEntriesInto(f, entries, log, from, to);
  return f.list;
}
