/**
 * Growable builders for FrameColumns (memory follows frames actually found, never a length field), and
 * what moves whole columns: the transfer list, packing a part into one buffer, joining parts in order.
 * What a frame's value is, where no column holds it, is frame-columns.ts.
 */
import {
  FrameFlag,
  FRAME_COLUMNS,
  WALK_COLUMNS,
  type ColumnArrays,
  type ColumnType,
  type FrameColumnName,
  type FrameColumns,
  type WalkColumnName,
} from "./model.ts";

type AnyColumn = ColumnArrays[ColumnType];
type ColumnConstructor = new (length: number) => AnyColumn;

const ARRAY_OF: { readonly [T in Exclude<ColumnType, "pos">]: new (length: number) => ColumnArrays[T] } = {
  f64: Float64Array,
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  u64: BigUint64Array,
};

/** The typed array of a column type; positions are f64 only when `wide` (widePositions). */
function arrayOf(type: ColumnType, wide: boolean): ColumnConstructor {
  if (type === "pos") return wide ? Float64Array : Uint32Array;
  return ARRAY_OF[type];
}

const COLUMN_NAMES = Object.keys(FRAME_COLUMNS) as FrameColumnName[];

/** Typed-array columns named by `names` that grow together. */
class GrowableColumns {
  count = 0;
  protected capacity: number;
  private readonly names: readonly string[];
  private readonly types: Readonly<Record<string, ColumnType>>;
  private readonly mismatchFrames: number[] = [];
  private readonly mismatchChecksums: bigint[] = [];
  private readonly lastFrames: number[] = [];
  private readonly lastUserHeaders: number[] = [];
  private readonly offsetRunStarts: number[] = [];
  private readonly offsetRunDeltas: number[] = [];
  private nextOffsetDelta = -1;
  /** Whether positions are f64 (widePositions): the kept columns' types follow it. */
  protected readonly wide: boolean;

  constructor(table: Readonly<Record<string, ColumnType>>, initialCapacity: number, wide: boolean) {
    this.names = Object.keys(table);
    this.types = table;
    this.wide = wide;
    this.capacity = Math.max(16, initialCapacity);
    const columns = this as unknown as Record<string, AnyColumn>;
    for (const name of this.names) columns[name] = new (arrayOf(table[name] as ColumnType, wide))(this.capacity);
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

  /** Notes frame `frame`, the last complete one of its batch, and its user_headers_length (frames in ascending order). */
  addLast(frame: number, userHeadersLength: number): void {
    this.lastFrames.push(frame);
    this.lastUserHeaders.push(userHeadersLength);
  }

  /**
   * Notes that frame `frame` holds offset_delta `delta` where the runs noted so far may not say so (frames in
   * ascending order, each frame between two noted ones one more than the one before it): a run starts there
   * only when the last run does not already give it that value, so the runs are the ones addOffsetDeltas notes.
   */
  noteOffsetDelta(frame: number, delta: number): void {
    let runs = this.offsetRunStarts.length;
    // A frame noted twice (the frame after a flagged one, flagged itself) keeps its later value.
    if (runs > 0 && this.offsetRunStarts[runs - 1] === frame) {
      this.offsetRunStarts.pop();
      this.offsetRunDeltas.pop();
      runs--;
    }
    if (runs > 0 && (this.offsetRunDeltas[runs - 1] as number) + frame - (this.offsetRunStarts[runs - 1] as number) === delta) return;
    this.offsetRunStarts.push(frame);
    this.offsetRunDeltas.push(delta);
  }

  /**
   * Notes the offset_delta of frames [first, first + deltas.length), in order after every frame noted
   * before: only where a value is not the previous one + 1 (a batch's first frame, as a rule) is it kept.
   */
  addOffsetDeltas(first: number, deltas: Uint32Array): void {
    let next = this.nextOffsetDelta;
    for (let j = 0; j < deltas.length; j++) {
      const delta = deltas[j] as number;
      if (delta !== next) {
        this.offsetRunStarts.push(first + j);
        this.offsetRunDeltas.push(delta);
      }
      next = delta + 1;
    }
    this.nextOffsetDelta = next;
  }

  /** The kept columns holding the frames found: views when little capacity is spare, else trimmed copies. */
  finish(): FrameColumns {
    const n = this.count;
    // Copying the columns costs as much as building them; keep views unless over a quarter would be wasted.
    const view = n >= this.capacity * 0.75;
    const columns = this as unknown as Record<FrameColumnName, AnyColumn>;
    const out: Record<string, AnyColumn | number> = { count: n };
    for (const name of COLUMN_NAMES) {
      const kept = arrayOf(FRAME_COLUMNS[name], this.wide);
      const column = columns[name];
      if (column instanceof kept) out[name] = view ? column.subarray(0, n) : column.slice(0, n);
      else (out[name] = new kept(n)).set(column.subarray(0, n) as never);
    }
    out.mismatchFrames = Uint32Array.from(this.mismatchFrames);
    out.mismatchChecksums = BigUint64Array.from(this.mismatchChecksums);
    out.lastFrames = Uint32Array.from(this.lastFrames);
    out.lastUserHeaders = Uint32Array.from(this.lastUserHeaders);
    out.offsetRunStarts = Uint32Array.from(this.offsetRunStarts);
    out.offsetRunDeltas = Uint32Array.from(this.offsetRunDeltas);
    return out as unknown as FrameColumns;
  }

  private grow(capacity: number): void {
    const columns = this as unknown as Record<string, AnyColumn>;
    for (const name of this.names) {
      const next = new (arrayOf(this.types[name] as ColumnType, this.wide))(capacity);
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
  /** `wide`: positions past 4 GiB (widePositions of the walk's end). */
  constructor(initialCapacity = 1024, wide = false) {
    super(FRAME_COLUMNS, initialCapacity, wide);
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
  /** `wide`: positions past 4 GiB (widePositions of the input's size). */
  constructor(initialCapacity = 1024, wide = false) {
    super(WALK_COLUMNS, initialCapacity, wide);
  }

  override finish(): FrameColumns {
    const { flags, batch, userHeadersLength } = this;
    for (let i = 0; i < this.count; i++) {
      if ((flags[i] as number) & FrameFlag.checksumMismatch) this.addMismatch(i, this.computedChecksum[i] as bigint);
      if (i + 1 === this.count || batch[i + 1] !== batch[i]) this.addLast(i, userHeadersLength[i] as number);
    }
    this.addOffsetDeltas(0, this.offsetDelta.subarray(0, this.count));
    return super.finish();
  }
}

/** The lists FrameColumns keeps of some frames only: ascending frame indexes, and a value of each. */
const SPARSE_LISTS = [
  ["mismatchFrames", "mismatchChecksums"],
  ["lastFrames", "lastUserHeaders"],
  ["offsetRunStarts", "offsetRunDeltas"],
] as const satisfies readonly (readonly [keyof FrameColumns, keyof FrameColumns])[];

/** Every typed array buffer of a FrameColumns, for transferring it to another realm (each once). */
export function frameColumnBuffers(frames: FrameColumns): ArrayBuffer[] {
  const sparse = SPARSE_LISTS.flatMap(([indexes, values]) => [frames[indexes], frames[values]]);
  const buffers = [...COLUMN_NAMES.map((name) => frames[name].buffer), ...sparse.map((column) => column.buffer)] as ArrayBuffer[];
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
    bytes += Math.ceil((frames.count * frames[name].BYTES_PER_ELEMENT) / 8) * 8;
  }
  const buffer = allocate(bytes);
  const out: Record<string, unknown> = { ...frames };
  for (const name of COLUMN_NAMES) {
    const make = frames[name].constructor as unknown as new (b: ArrayBuffer, offset: number, length: number) => AnyColumn;
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
  // The sparse lists first: a part's columns may share a buffer with them, and the copy below frees it.
  for (const [indexes, values] of SPARSE_LISTS) {
    const length = all.reduce((n, f) => n + f[indexes].length, 0);
    const joinedIndexes = new Uint32Array(length);
    const make = (all[0] as FrameColumns)[values].constructor as new (length: number) => { set(from: ArrayLike<unknown>, at: number): void };
    const joinedValues = new make(length);
    let at = 0;
    let base = 0;
    for (const f of all) {
      const from = f[indexes];
      // A part's walk starts a run at its first frame; where the previous part's run goes on there, it is dropped, so
      // the joined runs are the ones a single walk notes.
      const skip = indexes === "offsetRunStarts" && at > 0 && continuesRun(joinedIndexes, joinedValues as unknown as Uint32Array, at, base, f) ? 1 : 0;
      for (let k = skip; k < from.length; k++) joinedIndexes[at + k - skip] = (from[k] as number) + base;
      joinedValues.set(f[values].subarray(skip), at);
      at += from.length - skip;
      base += f.count;
    }
    out[indexes] = at === length ? joinedIndexes : joinedIndexes.slice(0, at);
    out[values] = at === length ? joinedValues : (joinedValues as unknown as Uint32Array).slice(0, at);
  }
  // A part past 4 GiB has f64 positions; then the joined columns need them too.
  const wide = all.some((f) => f.start.BYTES_PER_ELEMENT === 8);
  const joined = Object.fromEntries(COLUMN_NAMES.map((name) => [name, new (arrayOf(FRAME_COLUMNS[name], wide))(count)])) as unknown as Record<
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
  return out as unknown as FrameColumns;
}

// Whether the offset run the joined runs [0, at) end with gives part `f`'s first frame (joined index `base`) its first offset_delta.
function continuesRun(starts: Uint32Array, deltas: Uint32Array, at: number, base: number, f: FrameColumns): boolean {
  if (f.offsetRunStarts[0] !== 0) return false;
  return (deltas[at - 1] as number) + base - (starts[at - 1] as number) === f.offsetRunDeltas[0];
}
