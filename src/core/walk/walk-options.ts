/** The options every walk of a batch input takes (analyze(), the streaming and range walks): limits and hooks. */
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import type { Xxh3 } from "../../checksum/xxh3.ts";

/** Limits and hooks of one analysis; every limit has a default. */
export interface AnalyzeOptions {
  /**
   * Diagnostics kept in the model: every batch-level finding, then frame-level ones first by
   * position to fill the rest; more are counted but dropped. Default 200,000.
   */
  readonly maxDiagnostics?: number;
  /** Called with bytes walked so far, about every progressEveryBytes. */
  readonly onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** Default 8 MiB. */
  readonly progressEveryBytes?: number;
  /** Where the first batch starts (after an envelope, see envelopes.ts); earlier bytes are unattributed. Default 0. */
  readonly startOffset?: number;
  /** A loaded kernel to walk with instead of the shared one (loadXxh3()). */
  readonly xxh3?: Xxh3;
  /** Container rules (containers.md; core/containers segment.ts, poll-reply.ts, send-messages.ts): true drops a batch finding the container replaces or exempts. Default: keep all. */
  readonly dropFinding?: (code: DiagnosticCode, stamped: boolean) => boolean;
}

/** Default for AnalyzeOptions.maxDiagnostics. */
export const DEFAULT_MAX_DIAGNOSTICS = 200_000;
