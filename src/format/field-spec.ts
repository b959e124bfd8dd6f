/**
 * The vocabulary of the layout tables (fields.ts, containers/): what a field is, how it is read and
 * shown, and every kind of byte. Types only, so the container tables and fields.ts both build on it.
 */
import type { ContainerByteKind } from "./containers/kinds.ts";

/** What a field means to the people who read a capture. */
export type FieldRole = "server-stamped" | "producer-set" | "length" | "checksum" | "reserved";

/** How the bytes of a field are read; every integer is little-endian. */
export type FieldType = "u8" | "u16" | "u32" | "u64" | "u128" | "bytes";

/** The decoded value of a field of type T: a number up to u32, a bigint from u64, bytes as a view. */
export type FieldValue<T extends FieldType> = T extends "u8" | "u16" | "u32" ? number : T extends "u64" | "u128" ? bigint : Uint8Array;

/**
 * How a field's value is shown (tooltip, header table, JSON). Each view keeps one renderer per entry
 * in a Record, so a new entry is a compile error until every view can show it.
 */
export type ValueShow =
  /** A plain unsigned number. */
  | "integer"
  /** A microsecond Unix time. */
  | "micros"
  /** A byte count of what follows. */
  | "byte-length"
  /** The length of the whole unit, its own header included (so never below the header size). */
  | "total-length"
  /** How many frames follow; the walk checks it. */
  | "frame-count"
  /** An XXH3-64 checksum the decoder recomputes; 16 hex digits. */
  | "checksum"
  /** A u128 message id, also read as a UUID. */
  | "message-id"
  /** Added to the batch's base_offset. */
  | "offset-delta"
  /** Added to the batch's origin_timestamp (µs). */
  | "time-delta"
  /** Bytes that must be zero. */
  | "reserved"
  /** Opaque bytes, shown as hex. */
  | "hex";

/** Every kind of byte the explorer can name: header fields, variable frame parts, bytes nothing describes, and container fields (containers/). */
export type ByteKind =
  | "batch.partition_id"
  | "batch.base_offset"
  | "batch.base_timestamp"
  | "batch.origin_timestamp"
  | "batch.batch_length"
  | "batch.batch_checksum"
  | "batch.message_count"
  | "batch.reserved"
  | "frame.checksum"
  | "frame.id"
  | "frame.offset_delta"
  | "frame.timestamp_delta"
  | "frame.user_headers_length"
  | "frame.payload_length"
  | "frame.reserved"
  | "frame.payload"
  | "frame.user_headers"
  | "unattributed"
  | ContainerByteKind;

/** One fixed-size header field: where it is, how it is read, and what the spec says of it. */
export interface FieldSpec {
  readonly kind: ByteKind;
  /** The spec's snake_case name. */
  readonly name: string;
  /** The camelCase key used in the JSON contract and in decoded headers. */
  readonly jsonKey: string;
  readonly offset: number;
  readonly size: number;
  readonly type: FieldType;
  readonly role: FieldRole;
  readonly description: string;
  /** How the value is shown; when absent, from the role and type (see showOf). */
  readonly show?: ValueShow;
  /** For a frame header field kept per frame in the analysis' typed-array columns: the column's name. */
  readonly column?: string;
}
