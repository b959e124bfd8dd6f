/** Builds a BatchTable (batch-table.ts) one batch at a time, from models or straight from a walk's header bytes. */
import {
  HEADER_KEYS,
  HEADER_WIDE,
  HEADER_OFFSETS,
  LITTLE_ENDIAN,
  HAS_HEADER,
  STAMPED,
  HAS_CHECKSUM,
  WORDS,
  WIDE,
  W_INDEX,
  W_FIRST_FRAME,
  W_FRAME_COUNT,
  W_ERRORS,
  W_WARNINGS,
  W_INFOS,
  W_FLAGS,
  HEADER_SLOT,
} from "./batch-table-layout.ts";
import { BatchTable, packedBatchBuffers, type CountsDelta } from "./batch-table.ts";
import type { BatchModel, TruncatedFrame } from "./batch-model.ts";

/** Fills a BatchTable one batch at a time, growing its columns by doubling. */
export class BatchTableBuilder {
  private count = 0;
  private capacity: number;
  private positions: Float64Array;
  private words: Uint32Array;
  private wide: BigUint64Array;
  /** The wide values as u32 words (two per u64, low first), for copyHeader. */
  private wideWords: Uint32Array;
  private readonly truncatedBatches: number[] = [];
  private readonly truncatedFrames: TruncatedFrame[] = [];
  private viewOf: Uint8Array | null = null;
  private view: DataView | null = null;

  constructor(capacity = 8) {
    this.capacity = Math.max(1, capacity);
    this.positions = new Float64Array(2 * this.capacity);
    this.words = new Uint32Array(WORDS * this.capacity);
    this.wide = new BigUint64Array(WIDE * this.capacity);
    this.wideWords = new Uint32Array(this.wide.buffer);
  }

  /** Batches pushed so far (the index the next one gets in a walk). */
  get length(): number {
    return this.count;
  }

  /** Byte position where the last pushed batch ends. */
  get lastEnd(): number {
    return this.count === 0 ? 0 : (this.positions[2 * this.count - 1] as number);
  }

  /**
   * Adds one batch, its counts from `counts` (the objects can be dropped at once: their values are copied).
   * With `headerAt`, the header values are copied from the header's bytes at that place of `bytes` (its
   * little-endian words, no bigint made), where b.header holds the same values decoded.
   */
  push(b: Omit<BatchModel, keyof CountsDelta>, counts: CountsDelta = b as BatchModel, bytes?: Uint8Array, headerAt = 0): void {
    this.grow(this.count + 1);
    const i = this.count++;
    this.positions[2 * i] = b.start;
    this.positions[2 * i + 1] = b.end;
    const w = WORDS * i;
    const words = this.words;
    words[w + W_INDEX] = b.index;
    words[w + W_FIRST_FRAME] = b.firstFrame;
    words[w + W_FRAME_COUNT] = b.frameCount;
    words[w + W_ERRORS] = counts.errors;
    words[w + W_WARNINGS] = counts.warnings;
    words[w + W_INFOS] = counts.infos;
    words[w + W_FLAGS] = (b.header ? HAS_HEADER : 0) | (b.stamped ? STAMPED : 0) | (b.computedChecksum !== null ? HAS_CHECKSUM : 0);
    this.wide[WIDE * i] = b.computedChecksum ?? 0n;
    if (b.header && bytes && LITTLE_ENDIAN) this.copyHeader(i, bytes, headerAt);
    else if (b.header) {
      const values = b.header as unknown as Readonly<Record<string, bigint | number>>;
      for (let k = 0; k < HEADER_KEYS.length; k++) {
        const value = values[HEADER_KEYS[k] as string] as bigint | number;
        if (HEADER_WIDE[k]) this.wide[WIDE * i + (HEADER_SLOT[k] as number)] = value as bigint;
        else words[w + (HEADER_SLOT[k] as number)] = value as number;
      }
    }
    if (b.truncatedFrame) {
      this.truncatedBatches.push(i);
      this.truncatedFrames.push(b.truncatedFrame);
    }
  }

  /** Whether pushClean can run here: it copies u64 values as little-endian u32 words. */
  static readonly copiesWords = LITTLE_ENDIAN;

  /**
   * Adds a walked batch with a header and no findings, without a BatchModel or a bigint: the header's values
   * copied from `bytes` at `headerAt`, the computed checksum from the two little-endian u32 words at
   * `checksumWords[checksumAt]`. Only where copiesWords.
   */
  pushClean(
    index: number,
    start: number,
    end: number,
    stamped: boolean,
    firstFrame: number,
    frameCount: number,
    checksumWords: Uint32Array,
    checksumAt: number,
    bytes: Uint8Array,
    headerAt: number,
  ): void {
    this.grow(this.count + 1);
    const i = this.count++;
    this.positions[2 * i] = start;
    this.positions[2 * i + 1] = end;
    const w = WORDS * i;
    const words = this.words;
    words[w + W_INDEX] = index;
    words[w + W_FIRST_FRAME] = firstFrame;
    words[w + W_FRAME_COUNT] = frameCount;
    words[w + W_ERRORS] = 0;
    words[w + W_WARNINGS] = 0;
    words[w + W_INFOS] = 0;
    words[w + W_FLAGS] = HAS_HEADER | (stamped ? STAMPED : 0) | HAS_CHECKSUM;
    this.wideWords[2 * WIDE * i] = checksumWords[checksumAt] as number;
    this.wideWords[2 * WIDE * i + 1] = checksumWords[checksumAt + 1] as number;
    this.copyHeader(i, bytes, headerAt);
  }

  // A u64 is two little-endian u32 words of the wide values, a u32 one of the batch's words.
  private copyHeader(i: number, bytes: Uint8Array, at: number): void {
    // One DataView per input window, not per batch: a walk pushes thousands of batches from one window.
    if (this.viewOf !== bytes) {
      this.viewOf = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const view = this.view as DataView;
    for (let k = 0; k < HEADER_OFFSETS.length; k++) {
      const p = at + (HEADER_OFFSETS[k] as number);
      const slot = HEADER_SLOT[k] as number;
      if (HEADER_WIDE[k]) {
        const w = 2 * (WIDE * i + slot);
        this.wideWords[w] = view.getUint32(p, true);
        this.wideWords[w + 1] = view.getUint32(p + 4, true);
      } else this.words[WORDS * i + slot] = view.getUint32(p, true);
    }
  }

  /** Makes room for `capacity` batches in one step, where a walk can estimate its count (doubling copies each column about twice). */
  reserve(capacity: number): void {
    if (capacity > this.capacity) this.resize(Math.ceil(capacity));
  }

  /** Adds every batch of a table, column by column. */
  append(t: BatchTable): void {
    const n = t.length;
    const p = t.packed;
    this.grow(this.count + n);
    const at = this.count;
    this.positions.set(p.positions.subarray(0, 2 * n), 2 * at);
    this.words.set(p.words.subarray(0, WORDS * n), WORDS * at);
    this.wide.set(p.wide.subarray(0, WIDE * n), WIDE * at);
    for (let j = 0; j < p.truncatedBatches.length; j++) {
      this.truncatedBatches.push(at + (p.truncatedBatches[j] as number));
      this.truncatedFrames.push(p.truncatedFrames[j] as TruncatedFrame);
    }
    this.count += n;
  }

  /** The table; the builder is not used after. */
  finish(): BatchTable {
    const n = this.count;
    if (n === 0) return BatchTable.EMPTY;
    // Trimmed where a doubling left more than an eighth of a large table unused: it lives as long as the input is shown
    // (a copy of a small one would cost more than its waste: an edit re-analyses a batch or two).
    const trim = this.capacity > 256 && this.capacity - n > this.capacity / 8;
    const cut = <A extends Float64Array | Uint32Array | BigUint64Array>(a: A, size: number): A => (trim ? (a.slice(0, size) as A) : (a.subarray(0, size) as A));
    return BatchTable.fromPacked({
      count: n,
      positions: cut(this.positions, 2 * n),
      words: cut(this.words, WORDS * n),
      wide: cut(this.wide, WIDE * n),
      truncatedBatches: Uint32Array.from(this.truncatedBatches),
      truncatedFrames: this.truncatedFrames,
    });
  }

  private grow(needed: number): void {
    if (needed <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < needed) capacity *= 2;
    this.resize(capacity);
  }

  private resize(capacity: number): void {
    this.positions = widened(this.positions, 2 * capacity);
    this.words = widened(this.words, WORDS * capacity);
    this.wide = widened(this.wide, WIDE * capacity);
    this.wideWords = new Uint32Array(this.wide.buffer);
    this.capacity = capacity;
  }
}

/** A new column of `length` elements holding `a`'s. */
function widened<A extends Float64Array | Uint32Array | BigUint64Array>(a: A, length: number): A {
  const next = new (a.constructor as new (n: number) => A)(length);
  next.set(a as never);
  return next;
}

/** The table holding these batches, in this order. */
export function batchTableOf(batches: Iterable<BatchModel>): BatchTable {
  const b = new BatchTableBuilder();
  for (const batch of batches) b.push(batch);
  return b.finish();
}

/**
 * The tables one after another, as one (columns copied once). With `release`, each part's buffers are
 * handed to it once copied (see concatFrameColumns), so the parts are not held to the end.
 */
export function concatBatchTables(parts: readonly BatchTable[], release?: (buffer: ArrayBuffer) => void): BatchTable {
  const nonEmpty = parts.filter((p) => p.length > 0);
  if (nonEmpty.length === 0) return BatchTable.EMPTY;
  if (nonEmpty.length === 1) return nonEmpty[0] as BatchTable;
  const count = nonEmpty.reduce((n, p) => n + p.length, 0);
  const b = new BatchTableBuilder(count);
  for (const part of nonEmpty) {
    b.append(part);
    if (release) for (const buffer of packedBatchBuffers(part.packed)) release(buffer);
  }
  return b.finish();
}
