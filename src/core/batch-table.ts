/**
 * The batches of an Analysis as columns: about 100 bytes a batch in typed arrays, where an object per
 * batch cost about 400 bytes of heap and a structured clone field by field. A segment written by a
 * producer that sends one message at a time holds a batch per message (2.6 million in 1 GiB). A
 * BatchModel is made on demand by `at(i)`; hot paths read one column with the accessors instead.
 */
import { BATCH_HEADER_LAYOUT, valueFields } from "../format/fields.ts";
import { lowerBound, partitionPoint } from "../lib/binary-search.ts";
import type { BatchHeader, BatchModel, TruncatedFrame } from "./model.ts";

const HEADER_FIELDS = valueFields(BATCH_HEADER_LAYOUT);
// Every batch header value is a u64 or a u32 today; a field of another type needs a column kind here and in copyHeader.
for (const f of HEADER_FIELDS) if (!["u32", "u64"].includes(f.type)) throw new Error(`batch-table: no column for ${f.jsonKey} (${f.type})`);
const HEADER_KEYS: readonly string[] = HEADER_FIELDS.map((f) => f.jsonKey);
const HEADER_WIDE: readonly boolean[] = HEADER_FIELDS.map((f) => f.type === "u64");
const HEADER_OFFSETS: readonly number[] = HEADER_FIELDS.map((f) => f.offset);
/** Header u32 fields follow the batch's own words; u64 fields follow its computed checksum in the wide column. */
const U32_FIELDS = HEADER_WIDE.filter((w) => !w).length;
const U64_FIELDS = HEADER_WIDE.length - U32_FIELDS;
// copyHeader writes a u64 as its two u32 words, low first: the layout of a BigUint64Array on a little-endian host.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HEADER_TEMPLATE: Readonly<Record<string, bigint | number>> = Object.fromEntries(HEADER_FIELDS.map((f) => [f.jsonKey, f.type === "u64" ? 0n : 0]));

/** Bits of the flags word. */
const HAS_HEADER = 1;
const STAMPED = 2;
const HAS_CHECKSUM = 4;

/** Words per batch: index, firstFrame, frameCount, errors, warnings, infos, flags, then the header's u32 fields. */
const OWN_WORDS = 7;
const WORDS = OWN_WORDS + U32_FIELDS;
/** u64 values per batch: the computed checksum, then the header's u64 fields. */
const WIDE = 1 + U64_FIELDS;
const W_INDEX = 0;
const W_FIRST_FRAME = 1;
const W_FRAME_COUNT = 2;
const W_ERRORS = 3;
const W_WARNINGS = 4;
const W_INFOS = 5;
const W_FLAGS = 6;

/** Where header field k lives: its slot among the batch's words or its wide values. */
const HEADER_SLOT: readonly number[] = (() => {
  let narrow = OWN_WORDS;
  let wide = 1;
  return HEADER_WIDE.map((w) => (w ? wide++ : narrow++));
})();
const HEADER_INDEX = new Map<string, number>(HEADER_KEYS.map((k, i) => [k, i]));

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

  /** The table holding these batches, in this order. */
  static from(batches: Iterable<BatchModel>): BatchTable {
    const b = new BatchTableBuilder();
    for (const batch of batches) b.push(batch);
    return b.finish();
  }

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
      computedChecksum: flags & HAS_CHECKSUM ? (p.wide[WIDE * i] as bigint) : null,
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

  /**
   * The tables one after another, as one (columns copied once). With `release`, each part's buffers are
   * handed to it once copied (see concatFrameColumns), so the parts are not held to the end.
   */
  static concat(parts: readonly BatchTable[], release?: (buffer: ArrayBuffer) => void): BatchTable {
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

  /** This table with its columns in one buffer from `allocate` (a releasable one, to free at once where it is joined). */
  packedInto(allocate: (bytes: number) => ArrayBuffer): BatchTable {
    if (this.length === 0) return this;
    const p = this.packed;
    const columns = [p.positions, p.words, p.wide, p.truncatedBatches];
    // 8-byte aligned, for the BigUint64Array and Float64Array views.
    const sizes = columns.map((c) => Math.ceil(c.byteLength / 8) * 8);
    const buffer = allocate(sizes.reduce((n, s) => n + s, 0));
    let at = 0;
    const place = <A extends Float64Array | Uint32Array | BigUint64Array>(c: A, k: number): A => {
      const view = new (c.constructor as new (b: ArrayBuffer, offset: number, length: number) => A)(buffer, at, c.length);
      view.set(c as never);
      at += sizes[k] as number;
      return view;
    };
    const positions = place(p.positions, 0);
    const words = place(p.words, 1);
    const wide = place(p.wide, 2);
    const truncatedBatches = place(p.truncatedBatches, 3);
    return new BatchTable({ ...p, positions, words, wide, truncatedBatches });
  }
}

/** The typed arrays of a table, to transfer with a message (the table must not be read after). */
export function packedBatchBuffers(p: PackedBatches): ArrayBuffer[] {
  // BatchTable.EMPTY is shared: it is copied, never detached. Tables made by withCounts share columns.
  if (p.count === 0) return [];
  return [...new Set([p.positions.buffer, p.words.buffer, p.wide.buffer, p.truncatedBatches.buffer])] as ArrayBuffer[];
}

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
