/** The analysis model: every batch and frame of an input with byte ranges, values and diagnostics. */
import type { Diagnostic } from "../format/diagnostics.ts";

/** Decoded batch header values; u64 fields are bigints. */
export interface BatchHeader {
  readonly partitionId: bigint;
  readonly baseOffset: bigint;
  readonly baseTimestamp: bigint;
  readonly originTimestamp: bigint;
  readonly batchLength: bigint;
  readonly batchChecksum: bigint;
  readonly messageCount: number;
}

/** A frame that does not fit its blob or the input: where it starts, where the bytes stop, and whether its 48-byte header is whole. */
export interface TruncatedFrame {
  readonly start: number;
  readonly end: number;
  readonly headerComplete: boolean;
}

/** One batch found in the input. */
export interface BatchModel {
  readonly index: number;
  /** Half-open byte range of the batch in the input, end clamped to the input size. */
  readonly start: number;
  readonly end: number;
  /** Null when fewer than 256 bytes were left for the header. */
  readonly header: BatchHeader | null;
  /** base_timestamp ≠ 0: the server has appended this batch. */
  readonly stamped: boolean;
  /** Null when the header is incomplete or batch_length < 256. */
  readonly computedChecksum: bigint | null;
  /** Index of the batch's first complete frame in the frame columns. */
  readonly firstFrame: number;
  /** Number of complete frames. */
  readonly frameCount: number;
  readonly truncatedFrame: TruncatedFrame | null;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

/** Bit flags of a frame's findings, for filters and quick verdicts. */
export const FrameFlag = {
  checksumMismatch: 1,
  reservedNonzero: 2,
  userHeadersMalformed: 4,
  offsetDeltaNotIndex: 8,
} as const;

/**
 * Complete frames of every batch as columns: millions of frames fit in a few typed
 * arrays that cross to and from a worker without a per-object cost.
 */
export interface FrameColumns {
  readonly count: number;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly batch: Uint32Array;
  /** Position of the frame inside its batch. */
  readonly indexInBatch: Uint32Array;
  readonly offsetDelta: Uint32Array;
  readonly timestampDelta: Uint32Array;
  readonly payloadLength: Uint32Array;
  readonly userHeadersLength: Uint32Array;
  readonly storedChecksum: BigUint64Array;
  readonly computedChecksum: BigUint64Array;
  /** FrameFlag bits. */
  readonly flags: Uint8Array;
}

/** Counts of what the input holds and what was found. */
export interface Summary {
  readonly batches: number;
  /** Complete frames over all batches. */
  readonly frames: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

/** Everything analyze() finds in one input. */
export interface Analysis {
  readonly size: number;
  readonly batches: BatchModel[];
  readonly frames: FrameColumns;
  /** Sorted by start, then end; at most options.maxDiagnostics of them unless batch-level findings alone are more (those are always kept). */
  readonly diagnostics: Diagnostic[];
  /** Diagnostics counted in the summary but not kept, past maxDiagnostics. */
  readonly diagnosticsOmitted: number;
  readonly summary: Summary;
}
