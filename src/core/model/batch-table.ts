/**
 * The batches of an Analysis as columns: about 100 bytes a batch in typed arrays, where an object per
 * batch cost about 400 bytes of heap and a structured clone field by field. A segment written by a
 * producer that sends one message at a time holds a batch per message (2.6 million in 1 GiB). A
 * BatchModel is made on demand by `at(i)`; hot paths read one column with the accessors instead.
 */
import { lowerBound, partitionPoint } from "../../lib/binary-search.ts";
import { packColumns } from "./pack-columns.ts";
import type { BatchHeader, BatchModel, TruncatedFrame } from "./batch-model.ts";
import {
  HEADER_KEYS,
  HEADER_WIDE,
  LITTLE_ENDIAN,
  HEADER_TEMPLATE,
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
  HEADER_INDEX,
} from "./batch-table-layout.ts";

/** The columns of a BatchTable, as they cross between threads (every typed array transfers). */
export interface PackedBatches {
  readonly count: number;
  /** start, end of each batch, interleaved. */
  readonly positions: Float64Array;
  /** index, firstFrame, frameCount, errors, warnings, infos, flags and the header's u32 fields of each batch, interleaved. */
  readonly words: Uint32Array;
  /** The computed checksum and the header's u64 fields (format/fields.ts order) of each batch, interleaved. */
  readonly wide: BigUint64Array;
  /** Batches with a truncated frame, ascending (few have one), and their frames in the same order. */
  readonly truncatedBatches: Uint32Array;
  readonly truncatedFrames: readonly TruncatedFrame[];
}

/** Per-batch diagnostic counts added to a table's (see BatchTable.withCounts). */
export interface CountsDelta {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

/** The batches of an input, read by index; see the file comment. */
export class BatchTable implements Iterable<BatchModel> {
  /** The table of no batches. */
  static readonly EMPTY = new BatchTable({
    count: 0,
    positions: new Float64Array(0),
    words: new Uint32Array(0),
    wide: new BigUint64Array(0),
    truncatedBatches: new Uint32Array(0),
    truncatedFrames: [],
  });

  /** The table over columns that crossed from another thread (no copy). */
  static fromPacked(packed: PackedBatches): BatchTable {
    return packed.count === 0 ? BatchTable.EMPTY : new BatchTable(packed);
  }

  /** The wide column as u32 words, made on the first headerFloat. */
  private wideWords: Uint32Array | null = null;

  private constructor(readonly packed: PackedBatches) {}

  /** Number of batches. */
  get length(): number {
    return this.packed.count;
  }

  /** Byte position where batch i starts. */
  start(i: number): number {
    return this.packed.positions[2 * i] as number;
  }

  /** Byte position where batch i ends (exclusive, clamped to the input). */
  end(i: number): number {
    return this.packed.positions[2 * i + 1] as number;
  }

  /** The index batch i was given by its walk (its place in the whole input, for a range's table). */
  index(i: number): number {
    return this.word(i, W_INDEX);
  }

  /** Index of batch i's first complete frame in the frame columns. */
  firstFrame(i: number): number {
    return this.word(i, W_FIRST_FRAME);
  }

  /** Complete frames of batch i. */
  frameCount(i: number): number {
    return this.word(i, W_FRAME_COUNT);
  }

  /** Errors found in batch i. */
  errors(i: number): number {
    return this.word(i, W_ERRORS);
  }

  /** Warnings found in batch i. */
  warnings(i: number): number {
    return this.word(i, W_WARNINGS);
  }

  /** Infos found in batch i. */
  infos(i: number): number {
    return this.word(i, W_INFOS);
  }

  /** base_timestamp ≠ 0 in batch i's header. */
  stamped(i: number): boolean {
    return (this.word(i, W_FLAGS) & STAMPED) !== 0;
  }

  /** One value of batch i's header, null where it has none (a sort reads one field of every batch). */
  headerValue<K extends keyof BatchHeader>(i: number, key: K): BatchHeader[K] | null {
    if (!this.hasHeader(i)) return null;
    const k = HEADER_INDEX.get(key) as number;
    const slot = HEADER_SLOT[k] as number;
    return (HEADER_WIDE[k] ? this.packed.wide[WIDE * i + slot] : this.packed.words[WORDS * i + slot]) as BatchHeader[K];
  }

  /**
   * A header value as a float, without a bigint: exact below 2^53, rounded past it as Number() rounds the
   * bigint; null without a header. What sorting millions of batches reads.
   */
  headerFloat(i: number, key: keyof BatchHeader): number | null {
    if (!this.hasHeader(i)) return null;
    const k = HEADER_INDEX.get(key) as number;
    const slot = HEADER_SLOT[k] as number;
    if (!HEADER_WIDE[k]) return this.packed.words[WORDS * i + slot] as number;
    if (!LITTLE_ENDIAN) return Number(this.packed.wide[WIDE * i + slot]);
    const wide = this.packed.wide;
    this.wideWords ??= new Uint32Array(wide.buffer, wide.byteOffset, 2 * wide.length);
    const w = 2 * (WIDE * i + slot);
    // hi · 2^32 is exact; the one rounding is the sum's, to nearest even, as Number(bigint) rounds.
    return (this.wideWords[w + 1] as number) * 2 ** 32 + (this.wideWords[w] as number);
  }

  /** Batch i's computed checksum, or null where none was computed (a header cut short, a batch too small). */
  computedChecksum(i: number): bigint | null {
    return this.word(i, W_FLAGS) & HAS_CHECKSUM ? (this.packed.wide[WIDE * i] as bigint) : null;
  }

  /** Whether batch i had 256 bytes for its header. */
  hasHeader(i: number): boolean {
    return (this.word(i, W_FLAGS) & HAS_HEADER) !== 0;
  }

  private word(i: number, slot: number): number {
    return this.packed.words[WORDS * i + slot] as number;
  }

  /** Batch i as an object (a new one on every call: compare batches by index, not identity). */
  at(i: number): BatchModel | undefined {
    const p = this.packed;
    if (!(i >= 0 && i < p.count)) return undefined;
    const { positions, words } = p;
    const w = WORDS * i;
    const flags = words[w + W_FLAGS] as number;
    let header: BatchHeader | null = null;
    if (flags & HAS_HEADER) {
      // Cloned from one template: every header gets the same object shape, in the table's key order.
      const values: Record<string, bigint | number> = { ...HEADER_TEMPLATE };
      for (let k = 0; k < HEADER_KEYS.length; k++) {
        const slot = HEADER_SLOT[k] as number;
        values[HEADER_KEYS[k] as string] = (HEADER_WIDE[k] ? p.wide[WIDE * i + slot] : words[w + slot]) as bigint | number;
      }
      header = values as unknown as BatchHeader;
    }
    // A literal, not a spread: one object shape for every batch, as the walks build them.
    return {
      index: words[w + W_INDEX] as number,
      start: positions[2 * i] as number,
      end: positions[2 * i + 1] as number,
      header,
      stamped: (flags & STAMPED) !== 0,
      computedChecksum: this.computedChecksum(i),
      firstFrame: words[w + W_FIRST_FRAME] as number,
      frameCount: words[w + W_FRAME_COUNT] as number,
      truncatedFrame: this.truncatedFrame(i),
      errors: words[w + W_ERRORS] as number,
      warnings: words[w + W_WARNINGS] as number,
      infos: words[w + W_INFOS] as number,
    };
  }

  /** Batch i's truncated frame, if it has one. */
  truncatedFrame(i: number): TruncatedFrame | null {
    const list = this.packed.truncatedBatches;
    const k = lowerBound(list, i);
    return list[k] === i ? (this.packed.truncatedFrames[k] as TruncatedFrame) : null;
  }

  /**
   * The batch that starts exactly at byte `pos`, or -1 (binary search of the starts). A walk that asks
   * batch after batch passes `hint`, the batch it expects, which is tried first.
   */
  startingAt(pos: number, hint = -1): number {
    if (hint >= 0 && hint < this.length && this.start(hint) === pos) return hint;
    const k = partitionPoint(0, this.length, (i) => this.start(i) < pos);
    return k < this.length && this.start(k) === pos ? k : -1;
  }

  *[Symbol.iterator](): Iterator<BatchModel> {
    for (let i = 0; i < this.length; i++) yield this.at(i) as BatchModel;
  }

  /** [index, batch] pairs, as Array.prototype.entries. */
  *entries(): IterableIterator<[number, BatchModel]> {
    for (let i = 0; i < this.length; i++) yield [i, this.at(i) as BatchModel];
  }

  /** As Array.prototype.map. */
  map<T>(fn: (batch: BatchModel, i: number) => T): T[] {
    const out = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = fn(this.at(i) as BatchModel, i);
    return out;
  }

  /** As Array.prototype.filter. */
  filter(fn: (batch: BatchModel, i: number) => unknown): BatchModel[] {
    const out: BatchModel[] = [];
    for (let i = 0; i < this.length; i++) {
      const b = this.at(i) as BatchModel;
      if (fn(b, i)) out.push(b);
    }
    return out;
  }

  /** As Array.prototype.findIndex. */
  findIndex(fn: (batch: BatchModel, i: number) => unknown): number {
    for (let i = 0; i < this.length; i++) if (fn(this.at(i) as BatchModel, i)) return i;
    return -1;
  }

  /** As Array.prototype.some. */
  some(fn: (batch: BatchModel, i: number) => unknown): boolean {
    return this.findIndex(fn) >= 0;
  }

  /** As Array.prototype.forEach. */
  forEach(fn: (batch: BatchModel, i: number) => void): void {
    for (let i = 0; i < this.length; i++) fn(this.at(i) as BatchModel, i);
  }

  /** Every batch, as objects (for small inputs and tests: a big input's batches are read by index). */
  toArray(): BatchModel[] {
    return this.map((b) => b);
  }

  /**
   * This table with every batch's firstFrame moved by frameBase and the counts delta(i) added, in
   * new columns (the others are shared). Used to join ranges and to merge late findings.
   */
  withCounts(frameBase: number, delta: (i: number) => CountsDelta | undefined): BatchTable {
    const words = this.packed.words.slice();
    for (let i = 0; i < this.length; i++) {
      const w = WORDS * i;
      words[w + W_FIRST_FRAME] = (words[w + W_FIRST_FRAME] as number) + frameBase;
      const d = delta(i);
      if (!d) continue;
      words[w + W_ERRORS] = (words[w + W_ERRORS] as number) + d.errors;
      words[w + W_WARNINGS] = (words[w + W_WARNINGS] as number) + d.warnings;
      words[w + W_INFOS] = (words[w + W_INFOS] as number) + d.infos;
    }
    return new BatchTable({ ...this.packed, words });
  }

  /** This table with `by` added to every batch's index (a range renumbered once its place is known). */
  withIndexShift(by: number): BatchTable {
    const words = this.packed.words.slice();
    for (let w = W_INDEX; w < words.length; w += WORDS) words[w] = (words[w] as number) + by;
    return new BatchTable({ ...this.packed, words });
  }

  /** This table with its columns in one buffer from `allocate` (a releasable one, to free at once where it is joined). */
  packedInto(allocate: (bytes: number) => ArrayBuffer): BatchTable {
    if (this.length === 0) return this;
    const p = this.packed;
    const [positions, words, wide, truncatedBatches] = packColumns([p.positions, p.words, p.wide, p.truncatedBatches] as const, allocate);
    return new BatchTable({ ...p, positions, words, wide, truncatedBatches });
  }
}

/** The typed arrays of a table, to transfer with a message (the table must not be read after). */
export function packedBatchBuffers(p: PackedBatches): ArrayBuffer[] {
  // BatchTable.EMPTY is shared: it is copied, never detached. Tables made by withCounts share columns.
  if (p.count === 0) return [];
  return [...new Set([p.positions.buffer, p.words.buffer, p.wide.buffer, p.truncatedBatches.buffer])] as ArrayBuffer[];
}
