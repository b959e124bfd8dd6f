/**
 * How a walk steps through a batch input, written once for every JavaScript walker (the kernel walk's
 * hosts, the header walks that cut ranges, detection and recovery): a batch is batch_length bytes and at
 * least its header; a frame is its header, its payload and its user headers. kernel.c states the same in C,
 * and the walk tests compare it with an independent reference walk.
 */
import { BATCH_FIELD, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "./fields.ts";
import type { ByteReader } from "./reader.ts";

const BATCH_LENGTH_AT = BATCH_FIELD.batch_length.offset;
const PAYLOAD_LENGTH_AT = FRAME_FIELD.payload_length.offset;
const USER_HEADERS_LENGTH_AT = FRAME_FIELD.user_headers_length.offset;

/** Bytes of a header before batch_length ends: a header walk needs only these. */
export const BATCH_LENGTH_END = BATCH_LENGTH_AT + BATCH_FIELD.batch_length.size;

/**
 * batch_length of the header at `at` in `r` as a number (two u32 reads, no bigint): exact below 2^53, and
 * past that still larger than any input, which is all a walk compares it with.
 */
export function batchLengthAt(r: ByteReader, at: number): number {
  return r.u32(at + BATCH_LENGTH_AT) + r.u32(at + BATCH_LENGTH_AT + 4) * 2 ** 32;
}

/**
 * Where a walk steps to past the batch of `length` bytes at `pos`, or -1 where it cannot step past it: a
 * batch_length below the header's size, or a batch running past `limit` (the input's or the range's end).
 */
export function batchStep(pos: number, length: number, limit: number): number {
  return length < BATCH_HEADER_SIZE || pos + length > limit ? -1 : pos + length;
}

/** Bytes of the frame whose (whole) header is at `at` in `r`: header, payload and user headers. */
export function frameLengthAt(r: ByteReader, at: number): number {
  return FRAME_HEADER_SIZE + r.u32(at + PAYLOAD_LENGTH_AT) + r.u32(at + USER_HEADERS_LENGTH_AT);
}
