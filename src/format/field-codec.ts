/**
 * Reading and writing any field of a layout table through ByteReader and ByteWriter, by its type,
 * and the JSON form of its value. Per batch or per edit; the per-frame decoder loop uses the
 * table's offsets as constants instead (see core/walk/analyze.ts).
 */
import { showOf, valueFields, type DecodedHeader, type FieldSpec, type FieldType, type FieldValue } from "./fields.ts";
import type { ByteReader } from "./reader.ts";
import type { ByteWriter } from "./writer.ts";
import { bytesToHex, hex128, hex64 } from "./values.ts";

/** Reading and writing one field type. */
interface TypeCodec<T extends FieldType> {
  read(r: ByteReader, pos: number, size: number): FieldValue<T>;
  write(w: ByteWriter, pos: number, size: number, value: FieldValue<T>): void;
}

/** One codec per field type. */
const CODECS: { readonly [T in FieldType]: TypeCodec<T> } = {
  u8: { read: (r, pos) => r.u8(pos), write: (w, pos, _size, v) => w.u8(pos, v) },
  u16: { read: (r, pos) => r.u16(pos), write: (w, pos, _size, v) => w.u16(pos, v) },
  u32: { read: (r, pos) => r.u32(pos), write: (w, pos, _size, v) => w.u32(pos, v) },
  u64: { read: (r, pos) => r.u64(pos), write: (w, pos, _size, v) => w.u64(pos, v) },
  u128: { read: (r, pos) => r.u128(pos), write: (w, pos, _size, v) => w.u128(pos, v) },
  bytes: { read: (r, pos, size) => r.slice(pos, pos + size), write: (w, pos, size, v) => w.set(pos, v.subarray(0, size)) },
};

/** Any field value. */
export type AnyFieldValue = FieldValue<FieldType>;

/** Reads field `spec` of the unit starting at `base`; the caller checks the field lies in the input. */
export function readField<F extends FieldSpec>(r: ByteReader, base: number, spec: F): FieldValue<F["type"]> {
  return (CODECS[spec.type] as TypeCodec<F["type"]>).read(r, base + spec.offset, spec.size);
}

/** Writes field `spec` of the unit starting at `base`; integers wrap to the field's width, bytes are cut to its size. */
export function writeField<F extends FieldSpec>(w: ByteWriter, base: number, spec: F, value: FieldValue<F["type"]>): void {
  (CODECS[spec.type] as TypeCodec<F["type"]>).write(w, base + spec.offset, spec.size, value);
}

/** Reads every value field (all but reserved) of a header at `base` into an object keyed by JSON key, in wire order. */
export function readHeader<const T extends readonly FieldSpec[]>(r: ByteReader, base: number, table: T): DecodedHeader<T> {
  const out: Record<string, AnyFieldValue> = {};
  for (const spec of valueFields(table)) out[spec.jsonKey] = readField(r, base, spec);
  return out as DecodedHeader<T>;
}

/** Writes the given values (keyed by JSON key) of a header at `base`; fields not given are left as they are. */
export function writeHeader<const T extends readonly FieldSpec[]>(w: ByteWriter, base: number, table: T, values: Partial<DecodedHeader<T>>): void {
  const given = values as Readonly<Record<string, AnyFieldValue | undefined>>;
  for (const spec of table) {
    const v = given[spec.jsonKey];
    if (v !== undefined) writeField(w, base, spec, v as never);
  }
}

/** The JSON type of a field's value: numbers up to u32, strings beyond (u64 as decimal, checksums and ids as hex). */
export type FieldJson<T extends FieldType> = T extends "u8" | "u16" | "u32" ? number : string;

/** A header's values in the JSON contract's form, keyed and typed from the layout. */
export type HeaderJson<T extends readonly FieldSpec[]> = {
  [F in T[number] as F["role"] extends "reserved" ? never : F["jsonKey"]]: FieldJson<F["type"]>;
};

/** A field value in the JSON contract's form: checksums as 16 hex digits, u128 as 32, other u64 as decimal strings, bytes as hex. */
export function jsonValue(spec: FieldSpec, value: AnyFieldValue): number | string {
  if (typeof value === "number") return value;
  if (value instanceof Uint8Array) return bytesToHex(value);
  if (showOf(spec) === "checksum") return hex64(value);
  return spec.type === "u128" ? hex128(value) : value.toString();
}

/** A decoded header in the JSON contract's form, in wire order. */
export function headerJson<const T extends readonly FieldSpec[]>(table: T, header: DecodedHeader<T>): HeaderJson<T> {
  const values = header as Readonly<Record<string, AnyFieldValue>>;
  const out: Record<string, number | string> = {};
  for (const spec of valueFields(table)) out[spec.jsonKey] = jsonValue(spec, values[spec.jsonKey] as AnyFieldValue);
  return out as HeaderJson<T>;
}
