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
