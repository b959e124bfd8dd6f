/** The shapes the container layer hands to the CLI and the page (see index.ts for the API tour). */
import type { ContainerByteKind } from "../../format/containers/kinds.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import type { Analysis } from "../model/model.ts";
import type { IndexEntries } from "./index-entries.ts";
import type { CaptureResult } from "./capture/types.ts";

export type { IndexEntry } from "./index-entries.ts";

/** The format names of containers.md, "Formats and their names". */
export const FORMAT_NAMES = [
  "batches",
  "segment",
  "index",
  "partition",
  "poll-reply",
  "send-messages",
  "request",
  "reply",
  "prepare",
  "legacy-messages",
  "capture",
] as const;

/** One format name. */
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Human titles of the formats, for the page's Format control and the CLI's first line. */
export const FORMAT_TITLES: Readonly<Record<FormatName, string>> = {
  batches: "Batches",
  segment: "Segment file (.log)",
  index: "Index file (.index)",
  partition: "Partition directory",
  "poll-reply": "Poll reply body",
  "send-messages": "SendMessages body",
  request: "Consensus request",
  reply: "Consensus reply",
  prepare: "Consensus prepare (replicated record)",
  "legacy-messages": "Legacy messages (iggy message poll --output-file)",
  capture: "Network capture (pcap/pcapng)",
};

/** The format a caller asks for: one name, or auto-detect. */
export type FormatChoice = FormatName | "auto";

/** One decoded container field with its absolute byte range and its value as text. */
export interface ContainerField {
  readonly kind: ContainerByteKind;
  /** Dotted for variable parts, e.g. "stream_id.kind"; else the field table's name. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/**
 * The container's own header (contracts.md §1.1 `container`). Index files and legacy dumps have no
 * header, only repeated records: their `fields` are empty and containerFieldAt() places a record's on demand.
 */
export interface ContainerInfo {
  readonly format: FormatName;
  readonly start: number;
  readonly end: number;
  readonly fields: readonly ContainerField[];
}

/** What the server's boot recovery would keep of a segment (containers.md "Recovery verdict"). */
export interface RecoveryVerdict {
  /** "index": from the last whole index entry, headers only; "scan": from byte 0, chain and checksums. */
  readonly path: "index" | "scan";
  readonly keptBytes: number;
  readonly keptMessages: number;
  /** Byte offset where recovery stops before the end of the file, or null when it keeps it all. */
  readonly stopsAt: number | null;
  /** The diagnostic code of why it stops, or null. */
  readonly reason: DiagnosticCode | null;
  /** Offset of the last message kept (the next segment must start one past it), or null when nothing is kept. */
  readonly lastOffset: bigint | null;
  /** One sentence for the report and the page. */
  readonly sentence: string;
}

/** One legacy message ([64-byte header][payload][user_headers]). */
export interface LegacyMessage {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly checksum: bigint;
  readonly id: bigint;
  readonly offset: bigint;
  readonly timestamp: bigint;
  readonly originTimestamp: bigint;
  readonly userHeadersLength: number;
  readonly payloadLength: number;
  /** The checksum check of its run: verified, mismatch, or unverifiable (not the start of a batch). */
  readonly check: "verified" | "mismatch" | "unverifiable";
}

/** Messages with one timestamp: the one origin batch they were polled from. */
export interface LegacyRun {
  readonly first: number;
  readonly count: number;
  readonly timestamp: bigint;
  /** The batch's origin_timestamp: the one the run's first frame rebuilt with, else the earliest of its messages. */
  readonly originTimestamp: bigint;
  readonly checkable: boolean;
  /** Why the run can or cannot be checked, in one sentence. */
  readonly note: string;
}

/** The decode of a legacy dump. */
export interface LegacyDecode {
  readonly messages: readonly LegacyMessage[];
  readonly runs: readonly LegacyRun[];
}

/** The batches of a decoded .log by start byte: what an index cross-check needs, kept after the log's bytes are gone. */
export interface BatchStarts {
  /** Which batch starts exactly at byte `start` (a key for the getters below), or -1 when none with a whole header does. */
  find(start: number): number;
  /** The base_offset of the batch `find` gave. */
  baseOffset(at: number): bigint;
  /** The base_timestamp of the batch `find` gave. */
  baseTimestamp(at: number): bigint;
  /** The index of the batch `find` gave in its input. */
  batch(at: number): number;
  /** The same starts as plain typed arrays (28 bytes a batch), made when they cross to another thread. */
  columns(): BatchStartColumns;
}

/** BatchStarts as it crosses threads: the batches with a whole header, by ascending start. */
export interface BatchStartColumns {
  readonly starts: Float64Array;
  readonly baseOffsets: BigUint64Array;
  readonly baseTimestamps: BigUint64Array;
  readonly batches: Uint32Array;
}

/** The `.log` an index is cross-checked against: its name, size and batch starts. */
export interface IndexLogView {
  readonly name: string;
  readonly size: number;
  readonly starts: BatchStarts;
}

/** Everything openInput() finds in one file: the format, why, the batches and every diagnostic. */
export interface OpenedInput {
  readonly format: FormatName;
  /** One sentence: why this format (auto-detect's reason, or "forced by …"). */
  readonly detectedBy: string;
  /** Batches and frames, with the container's diagnostics merged into diagnostics and summary. */
  readonly analysis: Analysis;
  /** The container's own fields; null for batches and segments. */
  readonly container: ContainerInfo | null;
  /** A segment's recovery verdict; null otherwise. */
  readonly recovery: RecoveryVerdict | null;
  /** An index file's entries, read in place from its bytes (index-entries.ts); null otherwise. */
  readonly entries: IndexEntries | null;
  /** A legacy dump's messages and runs; null otherwise. */
  readonly legacy: LegacyDecode | null;
  /** The `.log` an index file was cross-checked against (its batch starts), so a view can check the entries it shows; absent otherwise. */
  readonly indexLog?: IndexLogView;
  /** A network capture's connections and messages (capture/); absent otherwise. */
  readonly capture?: CaptureResult;
}
