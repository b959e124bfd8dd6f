/**
 * The spec's stable diagnostic codes as one table: severity, one-line summary and, for findings
 * kept per frame, the frame flag. Severities, summaries, FrameFlag bits and the frame tones are
 * all derived from it, so a new code is one entry here plus its check and its test.
 */

/** How bad a finding is; only errors make a verdict fail. */
export type Severity = "error" | "warning" | "info";

/** One stable code: how bad, what it means, and the frame-column flag a frame carrying it gets (if any). */
export interface DiagnosticSpec {
  readonly code: string;
  readonly severity: Severity;
  /** One-line explanation for help text, legends and the docs. */
  readonly summary: string;
  /** Name of the FrameFlag bit set on a complete frame with this finding. */
  readonly frameFlag?: string;
  /** That bit's value; fixed, because the wasm kernel writes the same bits (src/checksum/kernel/abi.ts, checked by its test). */
  readonly frameBit?: number;
}

/** Every stable code, in the spec's order (batch-format.md's table, then containers.md's). */
export const DIAGNOSTIC_TABLE = [
  { code: "header-truncated", severity: "error", summary: "fewer than 256 bytes remain where a batch header starts" },
  { code: "batch-length-too-small", severity: "error", summary: "batch_length < 256: the walk cannot step past this batch" },
  { code: "batch-truncated", severity: "error", summary: "batch_length runs past the end of the input" },
  { code: "batch-reserved-nonzero", severity: "error", summary: "a nonzero byte in header bytes 52..256" },
  { code: "frame-truncated", severity: "error", summary: "a frame header, payload or user headers run past the blob or the input" },
  { code: "frame-reserved-nonzero", severity: "error", summary: "frame bytes 40..48 are not all zero", frameFlag: "reservedNonzero", frameBit: 2 },
  {
    code: "frame-checksum-mismatch",
    severity: "error",
    summary: "stored frame checksum differs from the computed one",
    frameFlag: "checksumMismatch",
    frameBit: 1,
  },
  { code: "message-count-mismatch", severity: "error", summary: "complete frames walked differ from message_count" },
  { code: "batch-checksum-mismatch", severity: "error", summary: "stored batch_checksum differs from the computed one" },
  { code: "empty-batch", severity: "warning", summary: "message_count is 0 and the blob is empty: the server refuses such a batch" },
  {
    code: "offset-delta-not-index",
    severity: "warning",
    summary: "offset_delta does not step by one from the first frame's (producer: from 0)",
    frameFlag: "offsetDeltaNotIndex",
    frameBit: 8,
  },
  { code: "origin-not-earliest", severity: "warning", summary: "no frame has timestamp_delta 0, so origin_timestamp is not the earliest" },
  { code: "offset-discontinuity", severity: "warning", summary: "a stamped batch does not continue its partition's previous offsets" },
  { code: "timestamp-regression", severity: "warning", summary: "a stamped batch's base_timestamp is smaller than its partition's previous one" },
  {
    code: "user-headers-malformed",
    severity: "info",
    summary: "the user headers block is not Iggy TLV; shown raw (the server treats it as opaque)",
    frameFlag: "userHeadersMalformed",
    frameBit: 4,
  },
  // Containers (containers.md "Container diagnostics"), then this project's two: garbage and legacy runs that cannot be checked.
  { code: "segment-name-mismatch", severity: "error", summary: "a segment's first batch base_offset differs from the start offset in its file name" },
  { code: "segment-offset-gap", severity: "error", summary: "in a segment, a batch's base_offset is not the previous base_offset + message_count" },
  { code: "recovery-stops", severity: "info", summary: "boot recovery would stop before the end of the segment: what is kept, lost, and why" },
  { code: "index-entry-misplaced", severity: "error", summary: "an index entry's position is past the .log or not at a batch start" },
  { code: "index-entry-mismatch", severity: "error", summary: "the batch at an index entry's position has another base_offset or base_timestamp" },
  { code: "index-not-ascending", severity: "error", summary: "an index entry's offset or timestamp is lower than the previous entry's" },
  { code: "index-trailing-bytes", severity: "info", summary: "the .index ends in a partial entry (ignored by the server)" },
  { code: "index-orphan", severity: "warning", summary: "an .index without its .log (deleted at boot)" },
  { code: "partition-chain-gap", severity: "error", summary: "a segment's start offset is not the previous segment's last offset + 1" },
  { code: "partition-empty-segment", severity: "error", summary: "an empty segment that is not the last (the server refuses the partition)" },
  { code: "partition-no-segments", severity: "error", summary: "a directory read as a partition holds no segment (.log) file" },
  { code: "poll-count-mismatch", severity: "error", summary: "a poll reply's count differs from the sum of its records' message_count" },
  {
    code: "poll-partition-mismatch",
    severity: "warning",
    summary: "a poll record's partition_id differs from the prefix's (a server never sends it; Iggy accepts it)",
  },
  { code: "send-metadata-invalid", severity: "error", summary: "the SendMessages metadata does not parse or does not consume exactly metadata_length" },
  { code: "send-count-mismatch", severity: "error", summary: "messages_count differs from the batch's message_count, or is 0" },
  { code: "send-batch-not-at-end", severity: "error", summary: "the SendMessages batch does not end exactly at the body end" },
  { code: "send-producer-fields-set", severity: "warning", summary: "partition_id, base_offset or base_timestamp nonzero in a SendMessages batch" },
  { code: "consensus-size-mismatch", severity: "error", summary: "the consensus header's size is not 256 + body length (prepare: 256 + batch_length)" },
  { code: "consensus-command-unexpected", severity: "error", summary: "the consensus command does not match the forced format or is unknown" },
  { code: "prepare-timestamp-mismatch", severity: "error", summary: "the prepared batch's base_timestamp differs from the prepare header's timestamp" },
  { code: "legacy-truncated", severity: "error", summary: "a legacy message header or body runs past the end" },
  { code: "legacy-reserved-nonzero", severity: "error", summary: "a legacy message header's reserved u64 is nonzero" },
  { code: "legacy-unverifiable", severity: "info", summary: "a run of legacy messages whose checksums cannot be checked (not the start of a batch)" },
  { code: "format-unrecognized", severity: "error", summary: "auto-detect: the input does not look like any Iggy format" },
  // Captures (captures.md "Diagnostics"): from capture-unreadable to the end, located by connection, message and packet.
  {
    code: "capture-unreadable",
    severity: "error",
    summary: "a pcap/pcapng header, block or record length that is bad or runs past the file, or a pcapng block whose two lengths differ",
  },
  {
    code: "capture-link-unsupported",
    severity: "warning",
    summary: "an interface's link type is not one the reader decodes: its packets are counted, not decoded",
  },
  { code: "capture-packet-truncated", severity: "warning", summary: "a packet of an Iggy connection was captured shorter than it was sent (caplen < len)" },
  { code: "tcp-gap", severity: "error", summary: "bytes of a TCP stream the capture never saw (lost, cut by the snap length, or before the capture began)" },
  { code: "tcp-retransmission-differs", severity: "warning", summary: "a retransmitted TCP byte differs from its first copy (the first copy is kept)" },
  { code: "message-incomplete", severity: "error", summary: "the stream or the capture ends inside a protocol message" },
  { code: "message-size-invalid", severity: "error", summary: "a consensus header's size is < 256 or > 64 MiB: the stream cannot be cut further" },
  {
    code: "message-command-unexpected",
    severity: "warning",
    summary: "a command other than 5 (request) from a client or 8/13 (reply, eviction) from a server",
  },
  { code: "reply-unmatched", severity: "warning", summary: "a reply with no request waiting for it on its connection" },
  { code: "reply-status", severity: "info", summary: "the server refused a request: a nonzero status, with its IggyError name" },
  { code: "login-in-clear", severity: "warning", summary: "a login carries a password or token over plain TCP (its bytes are never shown)" },
  {
    code: "connection-encrypted",
    severity: "warning",
    summary: "an Iggy connection is TLS: its stream starts with a TLS record, so no message of it can be read",
  },
  { code: "consensus-checksum-mismatch", severity: "error", summary: "a nonzero consensus header or body checksum does not verify" },
] as const satisfies readonly DiagnosticSpec[];

type Entry = (typeof DIAGNOSTIC_TABLE)[number];

/** A stable diagnostic code. */
export type DiagnosticCode = Entry["code"];

/** Severity of every stable code, as batch-format.md's table gives it. */
export const SEVERITY_OF = Object.fromEntries(DIAGNOSTIC_TABLE.map((d) => [d.code, d.severity])) as { readonly [D in Entry as D["code"]]: D["severity"] };

/** Every stable code, in the spec's order. */
export const DIAGNOSTIC_CODES: DiagnosticCode[] = DIAGNOSTIC_TABLE.map((d) => d.code);

/** The capture codes (captures.md): every code from capture-unreadable on. */
export const CAPTURE_DIAGNOSTIC_CODES: DiagnosticCode[] = DIAGNOSTIC_CODES.slice(DIAGNOSTIC_CODES.indexOf("capture-unreadable"));

/** One-line explanation of each code for help text and legends. */
export const CODE_SUMMARY = Object.fromEntries(DIAGNOSTIC_TABLE.map((d) => [d.code, d.summary])) as Record<DiagnosticCode, string>;

/** Name of a frame flag. */
export type FrameFlagName = Extract<Entry, { frameFlag: string }>["frameFlag"];

/** Bit flags of a frame's findings, for filters and quick verdicts: one bit per code with a frameFlag. */
export const FrameFlag = Object.fromEntries(
  DIAGNOSTIC_TABLE.filter((d): d is Extract<Entry, { frameFlag: string }> => "frameFlag" in d).map((d) => [d.frameFlag, d.frameBit]),
) as { readonly [N in FrameFlagName]: number };

/** The FrameFlag bit of each code, 0 for codes no frame column carries. */
export const FRAME_FLAG_OF = Object.fromEntries(DIAGNOSTIC_TABLE.map((d) => [d.code, "frameFlag" in d ? FrameFlag[d.frameFlag] : 0])) as Readonly<
  Record<DiagnosticCode, number>
>;

/** The FrameFlag bits of each severity's codes, OR-ed together. */
export const FRAME_FLAGS_OF_SEVERITY: Readonly<Record<Severity, number>> = {
  error: flagsOf("error"),
  warning: flagsOf("warning"),
  info: flagsOf("info"),
};

function flagsOf(severity: Severity): number {
  return DIAGNOSTIC_TABLE.reduce((bits, d) => (d.severity === severity ? bits | FRAME_FLAG_OF[d.code] : bits), 0);
}

/** The worst severity among a frame's flags, or null for a clean frame. */
export function frameFlagSeverity(flags: number): Severity | null {
  if (flags & FRAME_FLAGS_OF_SEVERITY.error) return "error";
  if (flags & FRAME_FLAGS_OF_SEVERITY.warning) return "warning";
  if (flags & FRAME_FLAGS_OF_SEVERITY.info) return "info";
  return null;
}

/** A finding about the half-open byte range [start, end) of the input. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly start: number;
  readonly end: number;
  /** Index of the batch it belongs to, or null. */
  readonly batch: number | null;
  /** Index of the frame inside that batch, or null. */
  readonly frame: number | null;
  readonly message: string;
}

/** Builds a diagnostic with the severity its code carries. */
export function diagnostic(code: DiagnosticCode, start: number, end: number, batch: number | null, frame: number | null, message: string): Diagnostic {
  return { code, severity: SEVERITY_OF[code], start, end, batch, frame, message };
}
