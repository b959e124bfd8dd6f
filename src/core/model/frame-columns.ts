/**
 * The frame values the kept columns (9 bytes a frame) no longer hold: derived (end, user_headers_length,
 * offset_delta, batch, index in batch) or read from the frame's bytes (timestamp_delta, stored checksum),
 * with the computed checksum kept only where it differs. The builders are frame-columns-build.ts.
 */
import { FRAME_FIELD, FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { readU32 } from "../../format/reader.ts";
import { lowerBound, partitionPoint, upperBound } from "../../lib/binary-search.ts";
import type { BatchTable } from "./batch-table.ts";
import { FrameFlag, type Analysis, type FrameColumns } from "./model.ts";

/** End (exclusive) of complete frame `i`: the next frame's start, unless it is its batch's last. */
export function frameEnd(frames: FrameColumns, i: number): number {
  const k = lowerBound(frames.lastFrames, i);
  if (frames.lastFrames[k] !== i) return frames.start[i + 1] as number;
  return (frames.start[i] as number) + FRAME_HEADER_SIZE + (frames.payloadLength[i] as number) + (frames.lastUserHeaders[k] as number);
}

/** The offset_delta of complete frame `i`: its run's first value plus its place in the run. */
export function frameOffsetDelta(frames: FrameColumns, i: number): number {
  const run = upperBound(frames.offsetRunStarts, i) - 1;
  return (frames.offsetRunDeltas[run] as number) + i - (frames.offsetRunStarts[run] as number);
}

/** The user_headers_length of complete frame `i` (what is left of it after its header and payload). */
export function frameUserHeadersLength(frames: FrameColumns, i: number): number {
  return frameEnd(frames, i) - (frames.start[i] as number) - FRAME_HEADER_SIZE - (frames.payloadLength[i] as number);
}

/** Index of the batch holding complete frame `i` (binary search of the batches' frame ranges). */
export function frameBatch(batches: BatchTable, i: number): number {
  return partitionPoint(0, batches.length, (k) => batches.firstFrame(k) + batches.frameCount(k) <= i);
}

/** Position of complete frame `i` inside its batch. */
export function frameIndexInBatch(batches: BatchTable, i: number): number {
  const b = frameBatch(batches, i);
  return b < batches.length ? i - batches.firstFrame(b) : i;
}

const CHECKSUM_AT = FRAME_FIELD.checksum.offset;
const TIMESTAMP_DELTA_AT = FRAME_FIELD.timestamp_delta.offset;

/** The frame's stored checksum, read from its header in the analysed bytes. */
export function frameStoredChecksum(frames: FrameColumns, bytes: Uint8Array, i: number): bigint {
  const at = (frames.start[i] as number) + CHECKSUM_AT;
  return (BigInt(readU32(bytes, at + 4)) << 32n) | BigInt(readU32(bytes, at));
}

/** The frame's timestamp_delta, read from its header in the analysed bytes. */
export function frameTimestampDelta(frames: FrameColumns, bytes: Uint8Array, i: number): number {
  const at = (frames.start[i] as number) + TIMESTAMP_DELTA_AT;
  return readU32(bytes, at);
}

/** The checksum the decoder computed for frame `i` whose stored checksum is `stored`: that one unless the frame is flagged with a mismatch. */
export function computedChecksumOf(frames: FrameColumns, i: number, stored: bigint): bigint {
  if ((frames.flags[i] as number) & FrameFlag.checksumMismatch) {
    const k = partitionPoint(0, frames.mismatchFrames.length, (m) => (frames.mismatchFrames[m] as number) < i);
    if (frames.mismatchFrames[k] === i) return frames.mismatchChecksums[k] as bigint;
  }
  return stored;
}

/** The checksum the decoder computed for frame `i`, its stored one read from the analysed bytes where they match. */
export function frameComputedChecksum(frames: FrameColumns, bytes: Uint8Array, i: number): bigint {
  return computedChecksumOf(frames, i, frameStoredChecksum(frames, bytes, i));
}

/** The batch and position of complete frame `i` of an analysis. */
export function frameLocation(analysis: Analysis, i: number): { batch: number; indexInBatch: number } {
  const batch = frameBatch(analysis.batches, i);
  return { batch, indexInBatch: batch < analysis.batches.length ? i - analysis.batches.firstFrame(batch) : i };
}
