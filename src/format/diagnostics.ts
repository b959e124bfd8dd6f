/** The spec's stable diagnostic codes, their severities, and the shape every finding takes. */

/** How bad a finding is; only errors make a verdict fail. */
export type Severity = "error" | "warning" | "info";

/** Severity of every stable code, as batch-format.md's table gives it. */
export const SEVERITY_OF = {
  "header-truncated": "error",
  "batch-length-too-small": "error",
  "batch-truncated": "error",
  "batch-reserved-nonzero": "error",
  "frame-truncated": "error",
  "frame-reserved-nonzero": "error",
  "frame-checksum-mismatch": "error",
  "message-count-mismatch": "error",
  "batch-checksum-mismatch": "error",
  "empty-batch": "warning",
  "offset-delta-not-index": "warning",
  "origin-not-earliest": "warning",
  "offset-discontinuity": "warning",
  "timestamp-regression": "warning",
  "user-headers-malformed": "info",
  // Containers (containers.md "Container diagnostics"), then this project's two: garbage and legacy runs that cannot be checked.
  "segment-name-mismatch": "error",
  "segment-offset-gap": "error",
  "recovery-stops": "info",
  "index-entry-misplaced": "error",
  "index-entry-mismatch": "error",
  "index-not-ascending": "error",
  "index-trailing-bytes": "info",
  "index-orphan": "warning",
  "partition-chain-gap": "error",
  "partition-empty-segment": "error",
  "poll-count-mismatch": "error",
  "poll-partition-mismatch": "error",
  "send-metadata-invalid": "error",
  "send-count-mismatch": "error",
  "send-batch-not-at-end": "error",
  "send-producer-fields-set": "warning",
  "consensus-size-mismatch": "error",
  "consensus-command-unexpected": "error",
  "prepare-timestamp-mismatch": "error",
  "legacy-truncated": "error",
  "legacy-reserved-nonzero": "error",
  "legacy-unverifiable": "info",
  "format-unrecognized": "error",
} as const satisfies Record<string, Severity>;

/** A stable diagnostic code. */
export type DiagnosticCode = keyof typeof SEVERITY_OF;

/** Every stable code, in the spec's order. */
export const DIAGNOSTIC_CODES = Object.keys(SEVERITY_OF) as DiagnosticCode[];

/** One-line explanation of each code for help text and legends. */
export const CODE_SUMMARY: Record<DiagnosticCode, string> = {
  "header-truncated": "fewer than 256 bytes remain where a batch header starts",
  "batch-length-too-small": "batch_length < 256: the walk cannot step past this batch",
  "batch-truncated": "batch_length runs past the end of the input",
  "batch-reserved-nonzero": "a nonzero byte in header bytes 52..256",
  "frame-truncated": "a frame header, payload or user headers run past the blob or the input",
  "frame-reserved-nonzero": "frame bytes 40..48 are not all zero",
  "frame-checksum-mismatch": "stored frame checksum differs from the computed one",
  "message-count-mismatch": "complete frames walked differ from message_count",
  "batch-checksum-mismatch": "stored batch_checksum differs from the computed one",
  "empty-batch": "message_count is 0 and the blob is empty: the server refuses such a batch",
  "offset-delta-not-index": "offset_delta does not step by one from the first frame's (producer: from 0)",
  "origin-not-earliest": "no frame has timestamp_delta 0, so origin_timestamp is not the earliest",
  "offset-discontinuity": "a stamped batch does not continue its partition's previous offsets",
  "timestamp-regression": "a stamped batch's base_timestamp is smaller than its partition's previous one",
  "user-headers-malformed": "the user headers block is not Iggy TLV; shown raw (the server treats it as opaque)",
  "segment-name-mismatch": "a segment's first batch base_offset differs from the start offset in its file name",
  "segment-offset-gap": "in a segment, a batch's base_offset is not the previous base_offset + message_count",
  "recovery-stops": "boot recovery would stop before the end of the segment: what is kept, lost, and why",
  "index-entry-misplaced": "an index entry's position is past the .log or not at a batch start",
  "index-entry-mismatch": "the batch at an index entry's position has another base_offset or base_timestamp",
  "index-not-ascending": "an index entry's offset or timestamp is lower than the previous entry's",
  "index-trailing-bytes": "the .index ends in a partial entry (ignored by the server)",
  "index-orphan": "an .index without its .log (deleted at boot)",
  "partition-chain-gap": "a segment's start offset is not the previous segment's last offset + 1",
  "partition-empty-segment": "an empty segment that is not the last (the server refuses the partition)",
  "poll-count-mismatch": "a poll reply's count differs from the sum of its records' message_count",
  "poll-partition-mismatch": "a poll record's partition_id differs from the prefix's",
  "send-metadata-invalid": "the SendMessages metadata does not parse or does not consume exactly metadata_length",
  "send-count-mismatch": "messages_count differs from the batch's message_count, or is 0",
  "send-batch-not-at-end": "the SendMessages batch does not end exactly at the body end",
  "send-producer-fields-set": "partition_id, base_offset or base_timestamp nonzero in a SendMessages batch",
  "consensus-size-mismatch": "the consensus header's size is not 256 + body length (prepare: 256 + batch_length)",
  "consensus-command-unexpected": "the consensus command does not match the forced format or is unknown",
  "prepare-timestamp-mismatch": "the prepared batch's base_timestamp differs from the prepare header's timestamp",
  "legacy-truncated": "a legacy message header or body runs past the end",
  "legacy-reserved-nonzero": "a legacy message header's reserved u64 is nonzero",
  "legacy-unverifiable": "a run of legacy messages whose checksums cannot be checked (not the start of a batch)",
  "format-unrecognized": "auto-detect: the input does not look like any Iggy format",
};

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
