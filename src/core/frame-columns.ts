/**
 * Growable builders for FrameColumns (memory follows frames actually found, never a length field), and
 * the frame values the kept columns no longer hold: derived (end, batch, index in batch) or read from the
 * frame's bytes (timestamp_delta, stored checksum), with the computed checksum kept only where it differs.
 */
import { FRAME_FIELD, FRAME_HEADER_SIZE } from "../format/fields.ts";
import { readU32 } from "../format/reader.ts";
import { partitionPoint } from "../lib/binary-search.ts";
import {
  FRAME_COLUMNS,
  FrameFlag,
  WALK_COLUMNS,
  type Analysis,
  type BatchModel,
  type ColumnArrays,
  type ColumnType,
  type FrameColumnName,
  type FrameColumns,
  type WalkColumnName,
} from "./model.ts";

type AnyColumn = ColumnArrays[ColumnType];

const ARRAY_OF: { readonly [T in ColumnType]: new (length: number) => ColumnArrays[T] } = {
  f64: Float64Array,
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  u64: BigUint64Array,
};

const COLUMN_NAMES = Object.keys(FRAME_COLUMNS) as FrameColumnName[];

const BYTES_OF: { readonly [T in ColumnType]: number } = { f64: 8, u8: 1, u16: 2, u32: 4, u64: 8 };

/** Typed-array columns named by `names` that grow together. */
class GrowableColumns {
  count = 0;
  protected capacity: number;
  private readonly names: readonly string[];
  private readonly types: Readonly<Record<string, ColumnType>>;
  private readonly mismatchFrames: number[] = [];
  private readonly mismatchChecksums: bigint[] = [];

  constructor(table: Readonly<Record<string, ColumnType>>, initialCapacity: number) {
    this.names = Object.keys(table);
    this.types = table;
    this.capacity = Math.max(16, initialCapacity);
    const columns = this as unknown as Record<string, AnyColumn>;
    for (const name of this.names) columns[name] = new ARRAY_OF[table[name] as ColumnType](this.capacity);
  }

  /** Makes room for one more frame and returns its index. */
  next(): number {
    if (this.count === this.capacity) this.grow(this.capacity * 2);
    return this.count++;
  }

  /** Grows to at least `capacity` frames at once (one copy instead of repeated doubling). */
  reserve(capacity: number): void {
    if (capacity > this.capacity) this.grow(Math.ceil(capacity));
  }

  /** The room the columns have now. */
  get allocated(): number {
    return this.capacity;
  }

  /** Keeps the computed checksum of frame `frame`, whose stored one differs (frames in ascending order). */
  addMismatch(frame: number, computed: bigint): void {
    this.mismatchFrames.push(frame);
    this.mismatchChecksums.push(computed);
  }

  /** The kept columns holding the frames found: views when little capacity is spare, else trimmed copies. */
  finish(): FrameColumns {
    const n = this.count;
    // Copying the columns costs as much as building them; keep views unless over a quarter would be wasted.
    const view = n >= this.capacity * 0.75;
    const columns = this as unknown as Record<FrameColumnName, AnyColumn>;
    const out: Record<string, AnyColumn | number> = { count: n };
    for (const name of COLUMN_NAMES) out[name] = view ? columns[name].subarray(0, n) : columns[name].slice(0, n);
    out.mismatchFrames = Uint32Array.from(this.mismatchFrames);
    out.mismatchChecksums = BigUint64Array.from(this.mismatchChecksums);
    return out as unknown as FrameColumns;
  }

  private grow(capacity: number): void {
    const columns = this as unknown as Record<string, AnyColumn>;
    for (const name of this.names) {
      const next = new ARRAY_OF[this.types[name] as ColumnType](capacity);
      next.set(columns[name] as never);
      columns[name] = next;
    }
    this.capacity = capacity;
  }
}

/** The builder's kept columns: writable, and replaced as they grow. */
type KeptColumns = { -readonly [K in FrameColumnName]: ColumnArrays[(typeof FRAME_COLUMNS)[K]] };
/** The JS walk's columns: writable, and replaced as they grow. */
type WalkColumns = { -readonly [K in WalkColumnName]: ColumnArrays[(typeof WALK_COLUMNS)[K]] };

// Each class gets one property per column (declared here, created in the constructor in table order),
// so the decoder's hot loop writes `frames.offsetDelta[i]` with no indirection.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface KeptColumnsBuilder extends KeptColumns {}

/** Appends the kept columns of complete frames (the kernel walk writes these) and hands them out trimmed at the end. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class KeptColumnsBuilder extends GrowableColumns {
  constructor(initialCapacity = 1024) {
    super(FRAME_COLUMNS, initialCapacity);
  }
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface FrameColumnsBuilder extends WalkColumns {}

/**
 * The JS walk's builder: every column its checks read, for the walk's lifetime; finish() keeps only
 * FRAME_COLUMNS and the computed checksums of the frames flagged with a checksum mismatch.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class FrameColumnsBuilder extends GrowableColumns {
  constructor(initialCapacity = 1024) {
    super(WALK_COLUMNS, initialCapacity);
  }

  override finish(): FrameColumns {
    const flags = this.flags;
    for (let i = 0; i < this.count; i++) if ((flags[i] as number) & FrameFlag.checksumMismatch) this.addMismatch(i, this.computedChecksum[i] as bigint);
    return super.finish();
  }
}

/** Every typed array buffer of a FrameColumns, for transferring it to another realm (each once). */
export function frameColumnBuffers(frames: FrameColumns): ArrayBuffer[] {
  const buffers = [...COLUMN_NAMES.map((name) => frames[name].buffer), frames.mismatchFrames.buffer, frames.mismatchChecksums.buffer] as ArrayBuffer[];
  return [...new Set(buffers)];
}

/**
 * The same columns copied into one buffer made by `allocate` (each column 8-byte aligned): a range
 * worker's part goes out so, on one releasable buffer (lib/release-buffer.ts) the joining thread frees.
 */
export function packFrameColumns(frames: FrameColumns, allocate: (bytes: number) => ArrayBuffer): FrameColumns {
  const at = new Map<FrameColumnName, number>();
  let bytes = 0;
  for (const name of COLUMN_NAMES) {
    at.set(name, bytes);
    bytes += Math.ceil((frames.count * BYTES_OF[FRAME_COLUMNS[name]]) / 8) * 8;
  }
  const buffer = allocate(bytes);
  const out: Record<string, unknown> = { ...frames };
  for (const name of COLUMN_NAMES) {
    const make = ARRAY_OF[FRAME_COLUMNS[name]] as unknown as new (b: ArrayBuffer, offset: number, length: number) => AnyColumn;
    const column = new make(buffer, at.get(name) as number, frames.count);
    column.set(frames[name] as never);
    out[name] = column;
  }
  return out as unknown as FrameColumns;
}

/**
 * Joins the columns of consecutive ranges (frame indexes of each part follow the previous parts').
 * With `release`, each part's buffers are handed to it as soon as they are copied (releaseBuffer, or
 * the page's range workers, which take them away when they end), so the parts are not held to the end.
 */
export function concatFrameColumns(all: readonly FrameColumns[], release?: (buffer: ArrayBuffer) => void): FrameColumns {
  if (all.length === 1) return all[0] as FrameColumns;
  const count = all.reduce((n, f) => n + f.count, 0);
  const out: Record<string, unknown> = { count };
  // The mismatches first: a part's columns may share a buffer with them, and the copy below frees it.
  const mismatches = all.reduce((n, f) => n + f.mismatchFrames.length, 0);
  const frames = new Uint32Array(mismatches);
  const checksums = new BigUint64Array(mismatches);
  let m = 0;
  let base = 0;
  for (const f of all) {
    for (let k = 0; k < f.mismatchFrames.length; k++) frames[m + k] = (f.mismatchFrames[k] as number) + base;
    checksums.set(f.mismatchChecksums, m);
    m += f.mismatchFrames.length;
    base += f.count;
  }
  const joined = Object.fromEntries(COLUMN_NAMES.map((name) => [name, new ARRAY_OF[FRAME_COLUMNS[name]](count)])) as unknown as Record<
    FrameColumnName,
    { set(from: ArrayLike<number> & ArrayLike<bigint>, at: number): void }
  >;
  let at = 0;
  for (const f of all) {
    for (const name of COLUMN_NAMES) joined[name].set(f[name] as never, at);
    at += f.count;
    if (release) for (const buffer of new Set(COLUMN_NAMES.map((name) => f[name].buffer))) release(buffer as ArrayBuffer);
  }
  for (const name of COLUMN_NAMES) out[name] = joined[name];
  out.mismatchFrames = frames;
  out.mismatchChecksums = checksums;
  return out as unknown as FrameColumns;
}

/** End (exclusive) of complete frame `i`. */
export function frameEnd(frames: FrameColumns, i: number): number {
  return (frames.start[i] as number) + FRAME_HEADER_SIZE + (frames.payloadLength[i] as number) + (frames.userHeadersLength[i] as number);
}

/** Index of the batch holding complete frame `i` (binary search of the batches' frame ranges). */
export function frameBatch(batches: readonly BatchModel[], i: number): number {
  return partitionPoint(0, batches.length, (k) => {
    const b = batches[k] as BatchModel;
    return b.firstFrame + b.frameCount <= i;
  });
}

/** Position of complete frame `i` inside its batch. */
export function frameIndexInBatch(batches: readonly BatchModel[], i: number): number {
  return i - (batches[frameBatch(batches, i)]?.firstFrame ?? 0);
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
  return { batch, indexInBatch: i - (analysis.batches[batch]?.firstFrame ?? 0) };
}
