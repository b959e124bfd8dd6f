/** On-demand detail of one frame or batch: field ranges, decoded values and user headers, read from the bytes. */
import { BATCH_HEADER_FIELDS, FRAME_FIELD, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type FieldSpec } from "../format/fields.ts";
import { decodeMessageId, type MessageId } from "../format/values.ts";
import { decodeUserHeaders, type UserHeadersResult } from "../format/user-headers.ts";
import type { Analysis, BatchModel } from "./model.ts";
import { partitionPoint, upperBound } from "../lib/binary-search.ts";
import { computedChecksumOf, frameBatch, frameEnd, frameStoredChecksum, frameTimestampDelta } from "./frame-columns.ts";

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
  readonly payload: { readonly start: number; readonly end: number };
  readonly userHeaders: { readonly start: number; readonly end: number; readonly decoded: UserHeadersResult | null };
  readonly storedChecksum: bigint;
  readonly computedChecksum: bigint;
}

/** Reads the detail of complete frame `frame` of an analysis from the analysed bytes. */
export function frameDetail(analysis: Analysis, bytes: Uint8Array, frame: number): FrameDetail {
  const f = analysis.frames;
  const start = f.start[frame] as number;
  const end = frameEnd(f, frame);
  const batch = analysis.batches[frameBatch(analysis.batches, frame)] as BatchModel;
  const storedChecksum = frameStoredChecksum(f, bytes, frame);
  const payloadStart = start + FRAME_HEADER_SIZE;
  const payloadEnd = payloadStart + (f.payloadLength[frame] as number);
  const userHeadersBytes = bytes.subarray(payloadEnd, end);
  return {
    frame,
    batch,
    indexInBatch: frame - batch.firstFrame,
    start,
    end,
    fields: placeFrameFields(start),
    id: decodeMessageId(bytes.subarray(start + FRAME_FIELD.id.offset, start + FRAME_FIELD.id.offset + FRAME_FIELD.id.size)),
    messageOffset: batch.header ? batch.header.baseOffset + BigInt(f.offsetDelta[frame] as number) : null,
    producerTime: batch.header ? batch.header.originTimestamp + BigInt(frameTimestampDelta(f, bytes, frame)) : null,
    payload: { start: payloadStart, end: payloadEnd },
    userHeaders: { start: payloadEnd, end, decoded: userHeadersBytes.length > 0 ? decodeUserHeaders(userHeadersBytes) : null },
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
  const i = partitionPoint(0, batches.length, (k) => (batches[k] as BatchModel).start <= offset) - 1;
  return i >= 0 && offset < (batches[i] as BatchModel).end ? i : -1;
}
