/**
 * The Iggy batch layout as data: one table per header. Every other module reads a field's
 * offset, size, type, JSON key and way of showing its value from here: the decoder, the encoder,
 * the editor, the JSON contract, the hex colours, the tooltips, the header table and the docs.
 * Source of truth: shared/spec/batch-format.md (apache/iggy core/binary_protocol/src/batch.rs).
 */
import { ALL_CONTAINER_KINDS, describeContainerKind, isContainerKind } from "./containers/index.ts";
import type { FieldValue, ValueShow, ByteKind, FieldSpec } from "./field-spec.ts";

export type { FieldRole, FieldType, FieldValue, ValueShow, ByteKind, FieldSpec } from "./field-spec.ts";

/** Size in bytes of the batch header. */
export const BATCH_HEADER_SIZE = 256;
/** Size in bytes of a frame header. */
export const FRAME_HEADER_SIZE = 48;

/** The 256-byte batch header, in wire order, with its literal types (BatchHeader is derived from it). */
export const BATCH_HEADER_LAYOUT = [
  {
    kind: "batch.partition_id",
    name: "partition_id",
    jsonKey: "partitionId",
    offset: 0,
    size: 8,
    type: "u64",
    role: "server-stamped",
    show: "integer",
    description: "Stamped by the server at admission; producers send 0.",
  },
  {
    kind: "batch.base_offset",
    name: "base_offset",
    jsonKey: "baseOffset",
    offset: 8,
    size: 8,
    type: "u64",
    role: "server-stamped",
    show: "integer",
    description: "Stamped at journal append; a message's offset is base_offset + offset_delta. Producers send 0.",
  },
  {
    kind: "batch.base_timestamp",
    name: "base_timestamp",
    jsonKey: "baseTimestamp",
    offset: 16,
    size: 8,
    type: "u64",
    role: "server-stamped",
    show: "micros",
    description: "Stamped at journal append, in microseconds; the server time of every message. Producers send 0.",
  },
  {
    kind: "batch.origin_timestamp",
    name: "origin_timestamp",
    jsonKey: "originTimestamp",
    offset: 24,
    size: 8,
    type: "u64",
    role: "producer-set",
    show: "micros",
    description: "The earliest origin timestamp of the batch's messages, in microseconds.",
  },
  {
    kind: "batch.batch_length",
    name: "batch_length",
    jsonKey: "batchLength",
    offset: 32,
    size: 8,
    type: "u64",
    role: "length",
    show: "total-length",
    description: "Total batch size: 256 + blob length.",
  },
  {
    kind: "batch.batch_checksum",
    name: "batch_checksum",
    jsonKey: "batchChecksum",
    offset: 40,
    size: 8,
    type: "u64",
    role: "checksum",
    show: "checksum",
    description: "XXH3-64 over the header fields and every frame's stored checksum; recomputed by the server when it stamps.",
  },
  {
    kind: "batch.message_count",
    name: "message_count",
    jsonKey: "messageCount",
    offset: 48,
    size: 4,
    type: "u32",
    role: "length",
    show: "frame-count",
    description: "Number of frames in the blob.",
  },
  {
    kind: "batch.reserved",
    name: "reserved",
    jsonKey: "reserved",
    offset: 52,
    size: 204,
    type: "bytes",
    role: "reserved",
    show: "reserved",
    description: "Must be zero; the server rejects nonzero.",
  },
] as const satisfies readonly FieldSpec[];

/** The 48-byte frame header, in wire order, with its literal types (the frame columns are derived from it). */
export const FRAME_HEADER_LAYOUT = [
  {
    kind: "frame.checksum",
    name: "checksum",
    jsonKey: "checksum",
    offset: 0,
    size: 8,
    type: "u64",
    role: "checksum",
    show: "checksum",
    column: "storedChecksum",
    description: "XXH3-64 of frame bytes 8..end (rest of header, payload, user headers).",
  },
  {
    kind: "frame.id",
    name: "id",
    jsonKey: "id",
    offset: 8,
    size: 16,
    type: "u128",
    role: "producer-set",
    show: "message-id",
    description: "Message id, e.g. a UUID (a u128 stored little-endian).",
  },
  {
    kind: "frame.offset_delta",
    name: "offset_delta",
    jsonKey: "offsetDelta",
    offset: 24,
    size: 4,
    type: "u32",
    role: "producer-set",
    show: "offset-delta",
    column: "offsetDelta",
    description: "Message offset = base_offset + offset_delta; producers send the frame's index.",
  },
  {
    kind: "frame.timestamp_delta",
    name: "timestamp_delta",
    jsonKey: "timestampDelta",
    offset: 28,
    size: 4,
    type: "u32",
    role: "producer-set",
    show: "time-delta",
    column: "timestampDelta",
    description: "Producer time = origin_timestamp + timestamp_delta (µs).",
  },
  {
    kind: "frame.user_headers_length",
    name: "user_headers_length",
    jsonKey: "userHeadersLength",
    offset: 32,
    size: 4,
    type: "u32",
    role: "length",
    show: "byte-length",
    column: "userHeadersLength",
    description: "Byte length of the user headers block.",
  },
  {
    kind: "frame.payload_length",
    name: "payload_length",
    jsonKey: "payloadLength",
    offset: 36,
    size: 4,
    type: "u32",
    role: "length",
    show: "byte-length",
    column: "payloadLength",
    description: "Byte length of the payload.",
  },
  {
    kind: "frame.reserved",
    name: "reserved",
    jsonKey: "reserved",
    offset: 40,
    size: 8,
    type: "u64",
    role: "reserved",
    show: "reserved",
    description: "Must be zero.",
  },
] as const satisfies readonly FieldSpec[];

/** The 256-byte batch header, in wire order. */
export const BATCH_HEADER_FIELDS: readonly FieldSpec[] = BATCH_HEADER_LAYOUT;

/** The 48-byte frame header, in wire order. */
export const FRAME_HEADER_FIELDS: readonly FieldSpec[] = FRAME_HEADER_LAYOUT;

/** A layout's fields keyed by their snake_case name, with their literal types. */
export type FieldsByName<T extends readonly FieldSpec[]> = { readonly [F in T[number] as F["name"]]: F };

/** Indexes a layout by field name, so code names a field (a typo is a compile error) instead of restating its offset. */
export function fieldsByName<const T extends readonly FieldSpec[]>(table: T): FieldsByName<T> {
  return Object.fromEntries(table.map((f) => [f.name, f])) as FieldsByName<T>;
}

/** The batch header fields by name, e.g. BATCH_FIELD.batch_length.offset. */
export const BATCH_FIELD = fieldsByName(BATCH_HEADER_LAYOUT);
/** The frame header fields by name, e.g. FRAME_FIELD.payload_length.offset. */
export const FRAME_FIELD = fieldsByName(FRAME_HEADER_LAYOUT);

/** The decoded values of a header: one entry per field that is not reserved, under its JSON key, typed by its field type. */
export type DecodedHeader<T extends readonly FieldSpec[]> = {
  readonly [F in T[number] as F["role"] extends "reserved" ? never : F["jsonKey"]]: FieldValue<F["type"]>;
};

/** The fields of a layout that carry a value (everything but reserved bytes), in wire order. */
export function valueFields<T extends readonly FieldSpec[]>(table: T): ReadonlyArray<Exclude<T[number], { role: "reserved" }>> {
  let fields = valueFieldsOf.get(table);
  if (!fields) valueFieldsOf.set(table, (fields = table.filter((f) => f.role !== "reserved")));
  return fields as ReadonlyArray<Exclude<T[number], { role: "reserved" }>>;
}
// Filtered once per table: header reads run per batch, and the JSON writer reads one header per frame.
const valueFieldsOf = new WeakMap<readonly FieldSpec[], readonly FieldSpec[]>();

/** How a field's value is shown: its own `show`, else reserved bytes as reserved, integers as integers, the rest as hex. */
export function showOf(spec: FieldSpec): ValueShow {
  if (spec.show) return spec.show;
  if (spec.role === "reserved") return "reserved";
  return spec.type === "u128" || spec.type === "bytes" ? "hex" : "integer";
}

/** The variable parts of a frame and the bytes no field claims, described like the fixed fields. */
export const VARIABLE_PARTS: Readonly<Record<"frame.payload" | "frame.user_headers" | "unattributed", { name: string; description: string }>> = {
  "frame.payload": { name: "payload", description: "The message body; covered by the frame checksum." },
  "frame.user_headers": { name: "user_headers", description: "User headers, after the payload: Iggy TLV when an SDK wrote them, else opaque bytes." },
  unattributed: {
    name: "unattributed",
    description:
      "Bytes no batch or frame describes: an envelope before the first batch (a poll reply's prefix, a consensus header), bytes after a batch that cannot be stepped past, or inside a cut batch.",
  },
};

/** Finds a field spec by its snake_case name in a header table; throws on a typo, which is a programming error. */
export function fieldByName(table: readonly FieldSpec[], name: string): FieldSpec {
  const spec = table.find((f) => f.name === name);
  if (!spec) throw new Error(`no field named ${name}`);
  return spec;
}

/** Every byte kind in display order, for legends and exhaustive style maps. */
export const ALL_BYTE_KINDS: readonly ByteKind[] = [
  ...BATCH_HEADER_FIELDS.map((f) => f.kind),
  ...FRAME_HEADER_FIELDS.map((f) => f.kind),
  "frame.payload",
  "frame.user_headers",
  "unattributed",
  ...ALL_CONTAINER_KINDS,
];

/** Human name and description of any byte kind, for tooltips and legends. */
export function describeKind(kind: ByteKind): { name: string; description: string; scope: "batch" | "frame" | "none" | "container" } {
  if (isContainerKind(kind)) return { ...describeContainerKind(kind), scope: "container" };
  const fixed = BATCH_HEADER_FIELDS.find((f) => f.kind === kind) ?? FRAME_HEADER_FIELDS.find((f) => f.kind === kind);
  if (fixed) return { name: fixed.name, description: fixed.description, scope: kind.startsWith("batch.") ? "batch" : "frame" };
  const part = VARIABLE_PARTS[kind as keyof typeof VARIABLE_PARTS];
  return { name: part.name, description: part.description, scope: kind === "unattributed" ? "none" : "frame" };
}
