/** One batch's decoded header and place, apart from the model so the batch table can name them without a cycle. */
import type { BATCH_HEADER_LAYOUT, DecodedHeader, FRAME_HEADER_LAYOUT } from "../../format/fields.ts";

/** Decoded batch header values, one per batch header field but reserved; u64 fields are bigints. */
export type BatchHeader = DecodedHeader<typeof BATCH_HEADER_LAYOUT>;

/** Decoded frame header values, one per frame header field but reserved. */
export type FrameHeader = DecodedHeader<typeof FRAME_HEADER_LAYOUT>;

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
