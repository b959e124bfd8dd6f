/**
 * The wasm kernel's memory ABI: u32 slot numbers of walk()'s control block and records, and the
 * flag bits it writes. layout.h is generated from these tables (and fields.ts), so C and TS agree.
 */

/** Slots of walk()'s control block (u32 words; `base` is an f64 over two words). */
export const WALK_CONTROL = {
  framesCap: 0,
  batchesCap: 1,
  fillColumns: 2,
  colStart: 3,
  colOffsetDelta: 4,
  colPayloadLength: 5,
  colUserHeadersLength: 6,
  colFlags: 7,
  batchRecords: 8,
  flaggedRecords: 9,
  scratch: 10,
  clampToEnd: 11,
  outBatches: 12,
  outFrames: 13,
  outFlagged: 14,
  outConsumed: 15,
  baseF64: 16,
} as const;
/** Words in walk()'s control block. */
export const WALK_CONTROL_WORDS = 18;

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
} as const;
/** Words in one batch record. */
export const BATCH_RECORD_WORDS = 12;

/** Slots of one record per frame with a finding (u32 words; the computed checksum is a u64 over two). */
export const FLAGGED_RECORD = {
  start: 0,
  indexInBatch: 1,
  flags: 2,
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
