/**
 * On-demand detail of one frame or batch: field ranges, decoded values and user headers, read from a
 * ByteWindow (absolute offsets) that holds what is shown, so a file read on demand needs only that window.
 */
import { BATCH_HEADER_FIELDS, FRAME_FIELD, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type FieldSpec } from "../../format/fields.ts";
import { decodeMessageId, type MessageId } from "../../format/values.ts";
import { decodeUserHeaders, type UserHeadersResult } from "../../format/user-headers.ts";
import type { Analysis, BatchModel } from "../model/model.ts";
import { partitionPoint, upperBound } from "../../lib/binary-search.ts";
import { computedChecksumOf, frameBatch, frameEnd, frameOffsetDelta } from "../model/frame-columns.ts";
import { readU32 } from "../../format/reader.ts";
import { windowSlice, type ByteWindow } from "../../lib/input-bytes.ts";

/** A header field placed in the input: its spec and absolute half-open range. */
export interface PlacedField {
  readonly spec: FieldSpec;
  readonly start: number;
  readonly end: number;
}

/** The header fields of a batch starting at batchStart, placed in the input. */
export function placeBatchFields(batchStart: number): PlacedField[] {
  return BATCH_HEADER_FIELDS.map((spec) => ({ spec, start: batchStart + spec.offset, end: batchStart + spec.offset + spec.size }));
}

/** The header fields of a frame starting at frameStart, placed in the input. */
export function placeFrameFields(frameStart: number): PlacedField[] {
  return FRAME_HEADER_FIELDS.map((spec) => ({ spec, start: frameStart + spec.offset, end: frameStart + spec.offset + spec.size }));
}

/** Bytes of a frame's header read from a window: null when the window does not hold all of them. */
function headerBytes(w: ByteWindow, frameStart: number): Uint8Array | null {
  const from = frameStart - w.start;
  return from >= 0 && from + FRAME_HEADER_SIZE <= w.bytes.length ? w.bytes.subarray(from, from + FRAME_HEADER_SIZE) : null;
}

/** Bytes [start, end) of a window when it holds all of them, else null. */
export function windowCovers(w: ByteWindow, start: number, end: number): Uint8Array | null {
  return start >= w.start && end <= w.start + w.bytes.length ? w.bytes.subarray(start - w.start, end - w.start) : null;
}

/** A frame's stored checksum read from the window holding its header, or null when it does not. */
export function storedChecksumIn(w: ByteWindow, frameStart: number): bigint | null {
  const h = headerBytes(w, frameStart);
  const at = FRAME_FIELD.checksum.offset;
  return h ? (BigInt(readU32(h, at + 4)) << 32n) | BigInt(readU32(h, at)) : null;
}

/** A frame's timestamp_delta read from the window holding its header, or null when it does not. */
export function timestampDeltaIn(w: ByteWindow, frameStart: number): number | null {
  const h = headerBytes(w, frameStart);
  return h ? readU32(h, FRAME_FIELD.timestamp_delta.offset) : null;
}

/** A frame's id read from the window holding its header, or null when it does not. */
export function messageIdIn(w: ByteWindow, frameStart: number): MessageId | null {
  const h = headerBytes(w, frameStart);
  const at = FRAME_FIELD.id.offset;
  return h ? decodeMessageId(h.subarray(at, at + FRAME_FIELD.id.size)) : null;
}

/** Everything worth showing about one complete frame. */
export interface FrameDetail {
  /** Index in the analysis' frame columns. */
  readonly frame: number;
  readonly batch: BatchModel;
  readonly indexInBatch: number;
  readonly start: number;
  readonly end: number;
  readonly fields: PlacedField[];
  readonly id: MessageId;
  /** base_offset + offset_delta, or null when the batch has no header. */
  readonly messageOffset: bigint | null;
  /** origin_timestamp + timestamp_delta in microseconds. */
  readonly producerTime: bigint | null;
  /** The payload's range, and its first bytes the windows held (all of it in memory; fewer when read on demand). */
  readonly payload: { readonly start: number; readonly end: number; readonly head: Uint8Array };
  /** The user headers' range, their bytes when a window held them all (else null), and their decoding (null when empty or not read). */
  readonly userHeaders: { readonly start: number; readonly end: number; readonly bytes: Uint8Array | null; readonly decoded: UserHeadersResult | null };
  readonly storedChecksum: bigint;
  readonly computedChecksum: bigint;
}

/**
 * Reads the detail of complete frame `frame` from `window` (absolute offsets), which must hold the
 * frame's 48-byte header; the payload head and user headers come from `window`, or from `tail` where
 * that one holds them (a large frame read on demand in two pieces). In memory pass wholeWindow(bytes).
 */
export function frameDetail(analysis: Analysis, window: ByteWindow, frame: number, tail: ByteWindow = window): FrameDetail {
  const f = analysis.frames;
  const start = f.start[frame] as number;
  const end = frameEnd(f, frame);
  const batch = analysis.batches.at(frameBatch(analysis.batches, frame)) as BatchModel;
  const storedChecksum = storedChecksumIn(window, start);
  const id = messageIdIn(window, start);
  const timestampDelta = timestampDeltaIn(window, start);
  if (storedChecksum === null || id === null || timestampDelta === null) {
    throw new RangeError(`frameDetail: the window ${window.start}..${window.start + window.bytes.length} does not hold frame ${frame}'s header at ${start}`);
  }
  const payloadStart = start + FRAME_HEADER_SIZE;
  const payloadEnd = payloadStart + (f.payloadLength[frame] as number);
  const headEnd = Math.min(payloadEnd, window.start + window.bytes.length);
  const userHeadersBytes = windowCovers(window, payloadEnd, end) ?? windowCovers(tail, payloadEnd, end);
  return {
    frame,
    batch,
    indexInBatch: frame - batch.firstFrame,
    start,
    end,
    fields: placeFrameFields(start),
    id,
    messageOffset: batch.header ? batch.header.baseOffset + BigInt(frameOffsetDelta(f, frame)) : null,
    producerTime: batch.header ? batch.header.originTimestamp + BigInt(timestampDelta) : null,
    payload: { start: payloadStart, end: payloadEnd, head: windowSlice(window, payloadStart, Math.max(payloadStart, headEnd)) },
    userHeaders: {
      start: payloadEnd,
      end,
      bytes: userHeadersBytes,
      decoded: userHeadersBytes && userHeadersBytes.length > 0 ? decodeUserHeaders(userHeadersBytes) : null,
    },
    storedChecksum,
    computedChecksum: computedChecksumOf(f, frame, storedChecksum),
  };
}

/** Index of the complete frame containing byte `offset`, or -1 (binary search over frame starts). */
export function frameAt(analysis: Analysis, offset: number): number {
  const i = upperBound(analysis.frames.start, offset, 0, analysis.frames.count) - 1;
  return i >= 0 && offset < frameEnd(analysis.frames, i) ? i : -1;
}

/** Index of the batch containing byte `offset`, or -1 (binary search over batch starts). */
export function batchAt(analysis: Analysis, offset: number): number {
  const batches = analysis.batches;
  const i = partitionPoint(0, batches.length, (k) => batches.start(k) <= offset) - 1;
  return i >= 0 && offset < batches.end(i) ? i : -1;
}
