/**
 * The wasm kernel's memory ABI: u32 slot numbers of walk()'s control block and records, and the
 * flag bits it writes. layout.h is generated from these tables (and fields.ts), so C and TS agree.
 */

/** Slots of walk()'s control block (u32 words). */
export const WALK_CONTROL = {
  framesCap: 0,
  batchesCap: 1,
  fillColumns: 2,
  colStart: 3,
  colPayloadLength: 4,
  colFlags: 5,
  batchRecords: 6,
  flaggedRecords: 7,
  scratch: 8,
  clampToEnd: 9,
  outBatches: 10,
  outFrames: 11,
  outFlagged: 12,
  outConsumed: 13,
  /** Added to each frame's start in the start column: the window's place in the input while that fits a u32, else 0. */
  startBase: 14,
} as const;
/** Words in walk()'s control block. */
export const WALK_CONTROL_WORDS = 16;

/** Slots of one batch record walk() writes per batch (u32 words; the checksum is a u64 over two). */
export const BATCH_RECORD = {
  start: 0,
  walkEnd: 1,
  frameCount: 2,
  flags: 3,
  truncatedStart: 4,
  firstFlagged: 5,
  flaggedCount: 6,
  firstOffsetDelta: 7,
  lastOffsetDelta: 8,
  firstFrame: 9,
  checksumU64: 10,
  /** The user_headers_length of the batch's last complete frame (0 without one): the one frame end the columns cannot derive. */
  lastUserHeadersLength: 12,
} as const;
/** Words in one batch record (even, so each record's u64 stays 8-byte aligned). */
export const BATCH_RECORD_WORDS = 14;

/** Slots of one record per frame with a finding (u32 words; the computed checksum is a u64 over two). */
export const FLAGGED_RECORD = {
  start: 0,
  indexInBatch: 1,
  flags: 2,
  /** The frame's offset_delta: a frame flagged offset-delta-not-index starts a run of its own (FrameColumns.offsetRunStarts). */
  offsetDelta: 3,
  computedU64: 4,
} as const;
/** Words in one flagged-frame record. */
export const FLAGGED_RECORD_WORDS = 6;

/** Flag bits: frame bits equal the model's FrameFlag (a test checks it); batch bits are the kernel's own. */
export const KERNEL_FLAG = {
  frameChecksumMismatch: 1,
  frameReservedNonzero: 2,
  frameUserHeadersMalformed: 4,
  frameOffsetDeltaNotIndex: 8,
  batchReservedNonzero: 1,
  batchHasZeroTimestampDelta: 2,
  batchTruncatedFrame: 4,
  batchTruncatedHeaderComplete: 8,
  batchTruncatedReservedNonzero: 16,
} as const;
