/**
 * A File read once, front to back, straight from its byte stream into chunk buffers, and cut into
 * batch-aligned ranges whose bytes are in memory: what the kernel walks on the page. Reading so runs
 * at the stream's speed (measured in a worker on a 256 MiB File: 165 ms through a BYOB reader, 638 ms in
 * 4 MiB FileReaderSync reads, whose per-call cost also makes small header reads slow), and memory stays
 * at a few chunks however large the File.
 */
import { BATCH_LENGTH_END, batchLengthAt, batchStep } from "../format/walk-steps.ts";
import { ByteReader } from "../format/reader.ts";
import { byobReader, heldRead } from "./byob-read.ts";
import type { ByteSource } from "../core/walk/range-walk.ts";
import type { RangePlan } from "../core/walk/stream-analyze.ts";

/**
 * Fills `chunk` (an array over the whole of its own buffer) from `filled` to its end with the next
 * bytes of the input; returns the array now holding them (a BYOB read moves the buffer) and how far it is filled.
 */
export type SequentialRead = (chunk: Uint8Array, filled: number) => Promise<{ chunk: Uint8Array; filled: number }>;

/** A SequentialRead of a Blob: a BYOB reader of its stream where there is one, else slices. */
export function sequentialRead(blob: Blob, sliceBytes = 4 << 20): SequentialRead {
  let byob: ReadableStreamBYOBReader | null | undefined;
  let at = 0;
  return async (chunk, filled) => {
    if (byob === undefined) byob = byobReader(blob);
    while (filled < chunk.length) {
      if (byob) {
        const { value, done } = await heldRead(byob, blob, new Uint8Array(chunk.buffer as ArrayBuffer, filled, chunk.length - filled));
        if (value) {
          chunk = new Uint8Array(value.buffer);
          filled += value.byteLength;
        }
        if (done || !value || value.byteLength === 0) break;
      } else {
        const part = new Uint8Array(await blob.slice(at, Math.min(blob.size, at + Math.min(sliceBytes, chunk.length - filled))).arrayBuffer());
        if (part.length === 0) break;
        chunk.set(part, filled);
        filled += part.length;
        at += part.length;
      }
    }
    return { chunk, filled };
  };
}

/** One cut range and the bytes of it that are in memory (all of it, but for a walk that cannot step on). */
export interface StreamedRange {
  readonly plan: RangePlan;
  /** Bytes from plan.start; shorter than the range only for the last range of a walk stuck on a bad batch_length. */
  readonly bytes: Uint8Array;
}

/** The part of the input one stream reads: [start, end), whose first batch is `firstBatch` (0 where it is not known yet). */
export interface StreamSpan {
  readonly start: number;
  readonly end: number;
  readonly firstBatch: number;
}

/**
 * Reads a span of an input of `size` bytes (all of it by default) through `read` in chunks of about
 * `chunkBytes` (grown to hold a larger batch) and calls `onRange` with each batch-aligned range in
 * input order, awaiting it (so a slow consumer holds the reading back); `allocate` gives each chunk (at
 * least the bytes asked; a recycled buffer may be larger), whose buffer then belongs to the range it
 * holds. Returns where the batches stepped to. A span that ends the input is handed over whole: where
 * batch_length cannot be stepped over (below 256, past the end), the rest is one last range with only
 * the bytes read so far in memory. A span before the end stops at the last batch boundary its batches
 * reach: its end, when its start was a batch start and the next span's is too.
 */
export async function streamRanges(
  size: number,
  read: SequentialRead,
  chunkBytes: number,
  onRange: (r: StreamedRange) => Promise<void> | void,
  allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
  span: StreamSpan = { start: 0, end: size, firstBatch: 0 },
): Promise<number> {
  const last = span.end >= size;
  let chunk: Uint8Array = allocate(Math.min(span.end - span.start, chunkBytes));
  let base = span.start;
  let filled = 0;
  let firstBatch = span.firstBatch;
  // One reader per chunk: a DataView per batch cost 120 ms of a 256 MiB file of single-message batches.
  let reader = new ByteReader(chunk);
  while (base < span.end) {
    if (filled < chunk.length) ({ chunk, filled } = await read(chunk, filled));
    if (reader.bytes !== chunk) reader = new ByteReader(chunk);
    const atEnd = base + filled >= span.end || filled < chunk.length;
    let p = 0;
    let batches = 0;
    let stuck = false;
    let need = 0;
    while (filled - p >= BATCH_LENGTH_END) {
      const length = batchLengthAt(reader, p);
      if (batchStep(base + p, length, last ? size : span.end) < 0) {
        stuck = true;
        break;
      }
      if (p + length > filled) {
        need = length;
        break;
      }
      p += length;
      batches++;
    }
    if ((stuck || atEnd) && last) {
      // The last range: to the end of the input, from what is in memory.
      await onRange({ plan: { start: base, end: size, firstBatch }, bytes: chunk.subarray(0, filled) });
      return size;
    }
    if (stuck || atEnd) {
      if (p > 0) await onRange({ plan: { start: base, end: base + p, firstBatch }, bytes: chunk.subarray(0, p) });
      return base + p;
    }
    if (p === 0) {
      // No whole batch in the chunk: grow it to hold the one that starts it.
      const grown = allocate(Math.min(span.end - base, Math.max(need, chunk.length * 2)));
      grown.set(chunk.subarray(0, filled));
      chunk = grown;
      continue;
    }
    const next = allocate(Math.min(span.end - base - p, Math.max(chunkBytes, filled - p)));
    next.set(chunk.subarray(p, filled));
    await onRange({ plan: { start: base, end: base + p, firstBatch }, bytes: chunk.subarray(0, p) });
    firstBatch += batches;
    base += p;
    filled -= p;
    chunk = next;
  }
  if (size === 0) await onRange({ plan: { start: 0, end: 0, firstBatch: 0 }, bytes: new Uint8Array(0) });
  return base;
}

/** A ByteSource over a range's bytes in memory (from `start`), asking `fallback` for anything outside them. */
export function rangeSource(start: number, bytes: Uint8Array, size: number, fallback: ByteSource | null): ByteSource {
  return {
    size,
    read(into, position) {
      const rel = position - start;
      if (rel >= 0 && rel + into.length <= bytes.length) {
        into.set(bytes.subarray(rel, rel + into.length));
        return into.length;
      }
      if (rel >= 0 && position + into.length >= size && rel + (size - position) <= bytes.length) {
        const part = bytes.subarray(rel, rel + (size - position));
        into.set(part);
        return part.length;
      }
      if (!fallback) throw new Error(`bytes ${position}..${position + into.length} are not in memory`);
      return fallback.read(into, position);
    },
  };
}
