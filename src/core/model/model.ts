/** The analysis model: every batch and frame of an input with byte ranges, values and diagnostics. */
import type { BatchTable } from "./batch-table.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { FRAME_HEADER_LAYOUT, type FieldType } from "../../format/fields.ts";

export { FrameFlag } from "../../format/diagnostics.ts";

export type { BatchHeader, BatchModel, FrameHeader, TruncatedFrame } from "./batch-model.ts";

/** The element type of a frame column; "pos" is a byte position of the input (see ColumnArrays). */
export type ColumnType = "f64" | "u8" | "u16" | "u32" | "u64" | "pos";

/** The typed array holding a column of each element type. */
export interface ColumnArrays {
  f64: Float64Array;
  u8: Uint8Array;
  u16: Uint16Array;
  u32: Uint32Array;
  u64: BigUint64Array;
  /** u32 while every position fits (half the memory of f64 for the largest column), f64 past 4 GiB: see widePositions. */
  pos: Uint32Array | Float64Array;
}

/** Whether byte positions of an input ending at `end` need f64 columns: a u32 holds every position before 2^32. */
export function widePositions(end: number): boolean {
  return end > 2 ** 32;
}

/** The column type holding a header field of each fixed-width integer type (u128 and bytes are read from the input on demand). */
type ColumnOfField = { u8: "u8"; u16: "u16"; u32: "u32"; u64: "u64" };
const COLUMN_OF_FIELD: Readonly<Record<FieldType, ColumnType | null>> = { u8: "u8", u16: "u16", u32: "u32", u64: "u64", u128: null, bytes: null };

type FrameFieldColumns = {
  readonly [F in Extract<(typeof FRAME_HEADER_LAYOUT)[number], { column: string }> as F["column"]]: ColumnOfField[F["type"] & keyof ColumnOfField];
};

/**
 * Every column the JS walk (analyze.ts) fills while it checks a batch: where the frame is, the header
 * fields that carry a `column` in the frame layout (offsetDelta, timestampDelta, userHeadersLength,
 * payloadLength, storedChecksum), then what the decoder adds. Only FRAME_COLUMNS of them are kept.
 */
export const WALK_COLUMNS = {
  /** Absolute half-open range of the frame in the input. */
  start: "f64",
  end: "f64",
  /** Index of the batch holding the frame. */
  batch: "u32",
  /** Position of the frame inside its batch. */
  indexInBatch: "u32",
  ...(Object.fromEntries(FRAME_HEADER_LAYOUT.flatMap((f) => ("column" in f ? [[f.column, COLUMN_OF_FIELD[f.type]]] : []))) as FrameFieldColumns),
  /** XXH3-64 of frame bytes 8..end, as the decoder computed it. */
  computedChecksum: "u64",
  /** FrameFlag bits (format/diagnostics.ts). */
  flags: "u8",
} as const satisfies Readonly<Record<string, ColumnType>>;

/**
 * The frame columns an Analysis keeps, 9 bytes a frame below 4 GiB (13 past it): the rest is derived
 * (frame-columns.ts: end and user_headers_length from the next frame's start, offset_delta from runs
 * of consecutive values, batch, index in batch) or
 * read from the frame's bytes when a view needs it (id, timestamp_delta, stored checksum), and the
 * computed checksum is kept only where it differs from the stored one.
 * The builder, the transfer lists and FrameColumns all come from this.
 */
export const FRAME_COLUMNS = {
  /** Absolute start of the frame in the input; frames of a batch follow each other, so it is also the previous frame's end. */
  start: "pos",
  payloadLength: WALK_COLUMNS.payloadLength,
  /** FrameFlag bits (format/diagnostics.ts). */
  flags: WALK_COLUMNS.flags,
} as const satisfies Readonly<Record<string, ColumnType>>;

/** Name of a frame column. */
export type FrameColumnName = keyof typeof FRAME_COLUMNS;

/** Name of a column of the JS walk's builder. */
export type WalkColumnName = keyof typeof WALK_COLUMNS;

/**
 * Complete frames of every batch as columns: millions of frames fit in a few typed
 * arrays that cross to and from a worker without a per-object cost. `mismatchFrames` (ascending)
 * and `mismatchChecksums` hold the computed checksum of each frame whose stored one differs;
 * `lastFrames` (ascending) and `lastUserHeaders` the user_headers_length of each batch's last
 * complete frame, the one frame of a batch whose end is not the next frame's start; `offsetRunStarts`
 * (ascending, from frame 0) and `offsetRunDeltas` the offset_delta where it is not the previous frame's + 1.
 */
export type FrameColumns = { readonly count: number } & { readonly [K in FrameColumnName]: ColumnArrays[(typeof FRAME_COLUMNS)[K]] } & {
  readonly mismatchFrames: Uint32Array;
  readonly mismatchChecksums: BigUint64Array;
  readonly lastFrames: Uint32Array;
  readonly lastUserHeaders: Uint32Array;
  readonly offsetRunStarts: Uint32Array;
  readonly offsetRunDeltas: Uint32Array;
};

/** Counts of what the input holds and what was found. */
export interface Summary {
  readonly batches: number;
  /** Complete frames over all batches. */
  readonly frames: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

/** Everything analyze() finds in one input. */
export interface Analysis {
  readonly size: number;
  /** Every batch found, in input order (batch-table.ts: columns, a BatchModel made on demand). */
  readonly batches: BatchTable;
  readonly frames: FrameColumns;
  /** Sorted by start, then end; at most options.maxDiagnostics of them unless batch-level findings alone are more (those are always kept). */
  readonly diagnostics: Diagnostic[];
  /** Diagnostics counted in the summary but not kept, past maxDiagnostics. */
  readonly diagnosticsOmitted: number;
  readonly summary: Summary;
}
