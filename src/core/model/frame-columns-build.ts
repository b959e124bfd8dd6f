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
import { U32List } from "./u32-list.ts";

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
  private readonly lastFrames = new U32List();
  private readonly lastUserHeaders = new U32List();
  private readonly offsetRunStarts = new U32List();
  private readonly offsetRunDeltas = new U32List();
  /** Whether positions are f64 (widePositions): the kept columns' types follow it. */
  protected readonly wide: boolean;

  constructor(table: Readonly<Record<string, ColumnType>>, initialCapacity: number, wide: boolean, allocate?: (bytes: number) => ArrayBuffer) {
    this.names = Object.keys(table);
    this.types = table;
    this.wide = wide;
    this.capacity = Math.max(16, initialCapacity);
    const columns = this as unknown as Record<string, AnyColumn>;
    const types = this.names.map((name) => arrayOf(table[name] as ColumnType, wide) as ColumnConstructor & { BYTES_PER_ELEMENT: number });
    // With `allocate`, every column in one buffer (each 8-byte aligned), which a range worker hands over as it is.
    const sizes = types.map((t) => Math.ceil((this.capacity * t.BYTES_PER_ELEMENT) / 8) * 8);
    const buffer = allocate?.(sizes.reduce((n, b) => n + b, 0));
    let at = 0;
    this.names.forEach((name, k) => {
      const make = types[k] as ColumnConstructor;
      columns[name] = buffer
        ? new (make as unknown as new (b: ArrayBuffer, o: number, n: number) => AnyColumn)(buffer, at, this.capacity)
        : new make(this.capacity);
      at += sizes[k] as number;
    });
  }

  /** Makes room for one more frame and returns its index. */
  next(): number {
    if (this.count === this.capacity) this.grow(Math.max(16, this.capacity * 2));
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

  /** addLast for each of `frames` (ascending, after those noted) plus `by`, with its user_headers_length in `values`. */
  protected addLasts(frames: Uint32Array, values: Uint32Array, by: number): void {
    this.lastFrames.pushShifted(frames, by);
    this.lastUserHeaders.pushShifted(values, 0);
  }

  /** Notes that frame `frame` holds offset_delta `delta` (noteRun: frames in ascending order, as noted in between). */
  noteOffsetDelta(frame: number, delta: number): void {
    noteRun(this.offsetRunStarts, this.offsetRunDeltas, frame, delta);
  }

  /** The kept columns holding the frames found: views when little capacity is spare (or `views`), else trimmed copies. */
  finish(views = false): FrameColumns {
    const n = this.count;
    // Copying the columns costs as much as building them; keep views unless over a quarter would be wasted.
    const view = views || n >= this.capacity * 0.75;
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
    out.lastFrames = this.lastFrames.toArray();
    out.lastUserHeaders = this.lastUserHeaders.toArray();
    out.offsetRunStarts = this.offsetRunStarts.toArray();
    out.offsetRunDeltas = this.offsetRunDeltas.toArray();
    return out as unknown as FrameColumns;
  }

  protected grow(capacity: number): void {
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
  /** `wide`: positions past 4 GiB (widePositions of the walk's end); `allocate`: the one buffer of every column (until it grows). */
  constructor(initialCapacity = 1024, wide = false, allocate?: (bytes: number) => ArrayBuffer) {
    super(FRAME_COLUMNS, initialCapacity, wide, allocate);
  }

  /** A builder whose columns are `columns` (views another builder's share of memory), with room for `capacity` frames until it grows. */
  static over(columns: Pick<FrameColumns, FrameColumnName>, capacity: number, wide: boolean): KeptColumnsBuilder {
    const b = new KeptColumnsBuilder(0, wide);
    for (const name of COLUMN_NAMES) (b as unknown as Record<FrameColumnName, AnyColumn>)[name] = columns[name].subarray(0, capacity);
    b.capacity = capacity;
    return b;
  }

  /** Appends the frames of the part that follows the ones here: their indexes shifted by the frames before them. */
  append(part: FrameColumns): void {
    const at = this.count;
    const n = part.count;
    if (at + n > this.capacity) this.grow(Math.max(at + n, Math.ceil(this.capacity * 1.5)));
    const columns = this as unknown as Record<FrameColumnName, AnyColumn>;
    for (const name of COLUMN_NAMES) {
      const to = columns[name];
      const from = part[name];
      // A part held further on in these same columns (one stream's share of them, frame-sink.ts) moves in place;
      // the caller sees that it overwrites no frames still to be moved.
      if (from.buffer === to.buffer && from.BYTES_PER_ELEMENT === to.BYTES_PER_ELEMENT) {
        const src = (from.byteOffset - to.byteOffset) / to.BYTES_PER_ELEMENT;
        if (src !== at) to.copyWithin(at, src, src + n);
      } else to.set(from.subarray(0, n) as never, at);
    }
    for (let k = 0; k < part.mismatchFrames.length; k++) this.addMismatch((part.mismatchFrames[k] as number) + at, part.mismatchChecksums[k] as bigint);
    this.addLasts(part.lastFrames, part.lastUserHeaders, at);
    // Each part's walk starts a run at its first frame; noted again here, one that goes on from the part before is dropped.
    for (let k = 0; k < part.offsetRunStarts.length; k++) this.noteOffsetDelta((part.offsetRunStarts[k] as number) + at, part.offsetRunDeltas[k] as number);
    this.count = at + n;
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
    const deltas = this.offsetDelta;
    for (let i = 0; i < this.count; i++) this.noteOffsetDelta(i, deltas[i] as number);
    return super.finish();
  }
}

/**
 * The one rule of offset runs, for every walk and join: frame `frame` (after every frame noted so far, each
 * frame between two noted ones one more than the one before it) holds `delta`; a run starts there only when
 * the last run does not already give it that value, and a frame noted twice keeps its later value, so any
 * route to the same frames notes the same runs.
 */
function noteRun(starts: U32List, deltas: U32List, frame: number, delta: number): void {
  if (starts.at(starts.length - 1) === frame) {
    starts.pop();
    deltas.pop();
  }
  const last = starts.length - 1;
  if (last >= 0 && (deltas.at(last) as number) + frame - (starts.at(last) as number) === delta) return;
  starts.push(frame);
  deltas.push(delta);
}

/** The lists FrameColumns keeps of some frames only, whose frame indexes a join rebases: ascending indexes, and a value of each. */
const REBASED_LISTS = [
  ["mismatchFrames", "mismatchChecksums"],
  ["lastFrames", "lastUserHeaders"],
] as const satisfies readonly (readonly [keyof FrameColumns, keyof FrameColumns])[];

/** Every sparse list: those and the offset runs (joined by noteRun). */
const SPARSE_LISTS = [...REBASED_LISTS, ["offsetRunStarts", "offsetRunDeltas"]] as const;

/** Every typed array buffer of a FrameColumns, for transferring it to another realm (each once). */
export function frameColumnBuffers(frames: FrameColumns): ArrayBuffer[] {
  const sparse = SPARSE_LISTS.flatMap(([indexes, values]) => [frames[indexes], frames[values]]);
  const buffers = [...COLUMN_NAMES.map((name) => frames[name].buffer), ...sparse.map((column) => column.buffer)] as ArrayBuffer[];
  return [...new Set(buffers)];
}

/**
 * Joins the columns of consecutive ranges (frame indexes of each part follow the previous parts').
 * With `release`, each part's buffers are handed to it as soon as they are copied (releaseBuffer, or
 * the page's range workers, which take them away when they end), so the parts are not held to the end.
 */
export function concatFrameColumns(all: readonly FrameColumns[], release?: (buffer: ArrayBuffer) => void): FrameColumns {
  if (all.length === 1) return all[0] as FrameColumns;
  // A part past 4 GiB has f64 positions; then the joined columns need them too.
  const joined = new KeptColumnsBuilder(
    all.reduce((n, f) => n + f.count, 0),
    all.some((f) => f.start.BYTES_PER_ELEMENT === 8),
  );
  for (const f of all) {
    joined.append(f);
    if (release) for (const buffer of new Set(COLUMN_NAMES.map((name) => f[name].buffer))) release(buffer as ArrayBuffer);
  }
  return joined.finish();
}
