/**
 * The two checksums of the batch layout: what bytes each covers (read from the layout table) and
 * computing them through the batched Xxh3 interface. The hex view asks here which bytes a checksum covers.
 */
import { BATCH_HEADER_LAYOUT, FRAME_FIELD } from "../format/fields.ts";
import type { Xxh3 } from "./xxh3.ts";

/** A half-open byte range. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where a frame's stored checksum sits in its header. */
export const FRAME_CHECKSUM_FIELD = FRAME_FIELD.checksum;

/** Offset inside a frame where the bytes its checksum covers begin: right after the checksum, to the frame's end. */
export const FRAME_CHECKSUM_FROM = FRAME_CHECKSUM_FIELD.offset + FRAME_CHECKSUM_FIELD.size;

/**
 * The batch header bytes the batch checksum covers, relative to the batch start: every header field
 * but the checksum itself and the reserved bytes, in wire order, adjacent fields merged ([0, 40) and [48, 52)).
 */
export const BATCH_CHECKSUM_HEADER_SPANS: readonly Span[] = BATCH_HEADER_LAYOUT.filter((f) => f.role !== "checksum" && f.role !== "reserved").reduce<Span[]>(
  (spans, f) => {
    const last = spans[spans.length - 1];
    if (last && last.end === f.offset) spans[spans.length - 1] = { start: last.start, end: f.offset + f.size };
    else spans.push({ start: f.offset, end: f.offset + f.size });
    return spans;
  },
  [],
);

/** Length of the header part of the batch checksum input: five u64 fields and message_count. */
export const BATCH_CHECKSUM_HEADER_BYTES = BATCH_CHECKSUM_HEADER_SPANS.reduce((n, s) => n + s.end - s.start, 0);

/** The bytes the checksum of the frame [frameStart, frameEnd) covers, or null when nothing of them is in the input. */
export function frameChecksumSpan(frameStart: number, frameEnd: number): Span | null {
  const start = frameStart + FRAME_CHECKSUM_FROM;
  return frameEnd > start ? { start, end: frameEnd } : null;
}

/**
 * The bytes the checksum of the batch at batchStart covers: its header spans (cut at headerEnd, for a
 * header the input ends inside), then the stored checksum of each complete frame [from, to) in order.
 */
export function batchChecksumSpans(batchStart: number, headerEnd: number, frameStarts: ArrayLike<number>, from: number, to: number): Span[] {
  const spans: Span[] = [];
  for (const s of BATCH_CHECKSUM_HEADER_SPANS) {
    const end = Math.min(batchStart + s.end, headerEnd);
    if (end > batchStart + s.start) spans.push({ start: batchStart + s.start, end });
  }
  for (let i = from; i < to; i++) {
    const at = (frameStarts[i] as number) + FRAME_CHECKSUM_FIELD.offset;
    spans.push({ start: at, end: at + FRAME_CHECKSUM_FIELD.size });
  }
  return spans;
}

/**
 * Computes every frame checksum of frames [from, to): XXH3-64 of frame bytes 8..end,
 * for frames given by absolute starts and ends in the input.
 */
export function computeFrameChecksums(
  xxh: Xxh3,
  input: Uint8Array,
  frameStarts: Float64Array,
  frameEnds: Float64Array,
  from: number,
  to: number,
  out: BigUint64Array,
): void {
  const windowStarts = new Float64Array(to - from);
  for (let i = from; i < to; i++) windowStarts[i - from] = (frameStarts[i] as number) + FRAME_CHECKSUM_FROM;
  // hashWindows indexes starts/ends/out alike, so feed it views aligned at `from`.
  xxh.hashWindows(input, windowStarts, frameEnds.subarray(from, to), 0, to - from, out.subarray(from, to));
}

/** The checksum of one frame [frameStart, frameEnd) held in `input`. */
export function frameChecksum(xxh: Xxh3, input: Uint8Array, frameStart: number, frameEnd: number): bigint {
  return xxh.hash(input.subarray(frameStart + FRAME_CHECKSUM_FROM, frameEnd));
}

const STORED = FRAME_CHECKSUM_FIELD.offset;
const STORED_SIZE = FRAME_CHECKSUM_FIELD.size;

/**
 * Computes the batch checksum: XXH3-64 over partition_id, base_offset, base_timestamp,
 * origin_timestamp, batch_length, message_count (44 header bytes), then each walked
 * frame's stored 8 checksum bytes in order.
 */
export function computeBatchChecksum(xxh: Xxh3, input: Uint8Array, batchStart: number, frameStarts: ArrayLike<number>, from: number, to: number): bigint {
  const buf = new Uint8Array(BATCH_CHECKSUM_HEADER_BYTES + STORED_SIZE * (to - from));
  let at = 0;
  for (const s of BATCH_CHECKSUM_HEADER_SPANS) {
    buf.set(input.subarray(batchStart + s.start, batchStart + s.end), at);
    at += s.end - s.start;
  }
  // A plain copy loop: a subarray per frame cost twice as much on batches of small messages.
  for (let i = from; i < to; i++, at += STORED_SIZE) {
    const s = (frameStarts[i] as number) + STORED;
    for (let k = 0; k < STORED_SIZE; k++) buf[at + k] = input[s + k] as number;
  }
  return xxh.hash(buf);
}
