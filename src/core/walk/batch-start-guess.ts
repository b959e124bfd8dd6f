/**
 * Where a batch plausibly starts in bytes taken from the middle of an input: a header whose reserved
 * bytes are zero, whose batch_length and message_count fit, whose frames step through it, and after
 * which the next header looks the same. Only a guess: the page reads a large File as several streams
 * from such guesses and keeps a stream's walk only when the walk before it ends exactly there.
 */
import { BATCH_FIELD, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "../../format/fields.ts";

const RESERVED_FROM = BATCH_FIELD.reserved.offset;
const RESERVED_TO = BATCH_FIELD.reserved.offset + BATCH_FIELD.reserved.size;
const LENGTH_AT = BATCH_FIELD.batch_length.offset;
const COUNT_AT = BATCH_FIELD.message_count.offset;
const FRAME_RESERVED_FROM = FRAME_FIELD.reserved.offset;
const FRAME_RESERVED_TO = FRAME_FIELD.reserved.offset + FRAME_FIELD.reserved.size;
const PAYLOAD_AT = FRAME_FIELD.payload_length.offset;
const USER_HEADERS_AT = FRAME_FIELD.user_headers_length.offset;

const u32 = (b: Uint8Array, at: number): number =>
  ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) + (b[at + 3] as number) * 2 ** 24;

function zero(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
}

// The batch length a header at p declares if it looks like one (−1 if not); `left` bytes of the input start at p.
function headerAt(b: Uint8Array, p: number, left: number): number {
  if (!zero(b, p + RESERVED_FROM, p + RESERVED_TO)) return -1;
  const length = u32(b, p + LENGTH_AT) + u32(b, p + LENGTH_AT + 4) * 2 ** 32;
  if (length < BATCH_HEADER_SIZE || length > left) return -1;
  const count = u32(b, p + COUNT_AT);
  if (count === 0 || count * FRAME_HEADER_SIZE > length - BATCH_HEADER_SIZE) return -1;
  return length;
}

// Whether the frames of the batch at p step through it as far as the probe shows: reserved bytes zero,
// none past the batch's end, and exactly message_count of them ending at its end when it is all in the probe.
function framesFit(b: Uint8Array, p: number, length: number): boolean {
  const end = p + length;
  const count = u32(b, p + COUNT_AT);
  let f = p + BATCH_HEADER_SIZE;
  let walked = 0;
  while (f < end && f + FRAME_HEADER_SIZE <= b.length) {
    if (!zero(b, f + FRAME_RESERVED_FROM, f + FRAME_RESERVED_TO)) return false;
    f += FRAME_HEADER_SIZE + u32(b, f + PAYLOAD_AT) + u32(b, f + USER_HEADERS_AT);
    walked++;
    if (f > end || walked > count) return false;
  }
  return end > b.length || (f === end && walked === count);
}

/**
 * The first index in `probe` (the input's bytes from position `at`, of `size` in all) where a batch
 * plausibly starts, with its header whole in the probe; −1 where none does.
 */
export function guessBatchStart(probe: Uint8Array, at: number, size: number): number {
  for (let p = 0; p + BATCH_HEADER_SIZE <= probe.length; p++) {
    const length = headerAt(probe, p, size - at - p);
    if (length < 0 || !framesFit(probe, p, length)) continue;
    const next = p + length;
    if (at + next < size && next + BATCH_HEADER_SIZE <= probe.length && headerAt(probe, next, size - at - next) < 0) continue;
    return p;
  }
  return -1;
}
