/** A growable builder for FrameColumns: memory follows frames actually found, never a length field. */
import { FRAME_COLUMNS, type ColumnArrays, type ColumnType, type FrameColumnName, type FrameColumns } from "./model.ts";

type AnyColumn = ColumnArrays[ColumnType];

const ARRAY_OF: { readonly [T in ColumnType]: new (length: number) => ColumnArrays[T] } = {
  f64: Float64Array,
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  u64: BigUint64Array,
};

const COLUMN_NAMES = Object.keys(FRAME_COLUMNS) as FrameColumnName[];

/** The builder's columns: writable, and replaced as they grow. */
type BuilderColumns = { -readonly [K in FrameColumnName]: ColumnArrays[(typeof FRAME_COLUMNS)[K]] };

// The class gets one property per column (declared here, created in the constructor in FRAME_COLUMNS order),
// so the decoder's hot loop writes `frames.offsetDelta[i]` with no indirection.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface FrameColumnsBuilder extends BuilderColumns {}

/** Appends complete frames and hands out trimmed columns at the end. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class FrameColumnsBuilder {
  count = 0;
  private capacity: number;

  constructor(initialCapacity = 1024) {
    this.capacity = Math.max(16, initialCapacity);
    const columns = this as unknown as Record<FrameColumnName, AnyColumn>;
    for (const name of COLUMN_NAMES) columns[name] = new ARRAY_OF[FRAME_COLUMNS[name]](this.capacity);
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

  /** The columns holding the frames found: views when little capacity is spare, else trimmed copies. */
  finish(): FrameColumns {
    const n = this.count;
    // Copying 10+ columns costs as much as building them; keep views unless over a quarter would be wasted.
    const view = n >= this.capacity * 0.75;
    const columns = this as unknown as Record<FrameColumnName, AnyColumn>;
    const out: Record<string, AnyColumn | number> = { count: n };
    for (const name of COLUMN_NAMES) out[name] = view ? columns[name].subarray(0, n) : columns[name].slice(0, n);
    return out as FrameColumns;
  }

  private grow(capacity: number): void {
    const columns = this as unknown as Record<FrameColumnName, AnyColumn>;
    for (const name of COLUMN_NAMES) {
      const next = new ARRAY_OF[FRAME_COLUMNS[name]](capacity);
      next.set(columns[name] as never);
      columns[name] = next;
    }
    this.capacity = capacity;
  }
}

/** Every typed array buffer of a FrameColumns, for transferring it to another realm. */
export function frameColumnBuffers(frames: FrameColumns): ArrayBuffer[] {
  return COLUMN_NAMES.map((name) => frames[name].buffer as ArrayBuffer);
}
