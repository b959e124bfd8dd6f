/** A container field's value as text, from its type alone (the JSON contract's `value`, tooltips). */
import type { FieldType } from "../field-spec.ts";
import { ByteReader } from "../reader.ts";
import { bytesToHex, hex128 } from "../values.ts";

/** Reads a little-endian field of `type` from its bytes: decimal for integers up to u64, 32 hex digits for u128, hex for bytes. */
export function fieldValueText(type: FieldType, field: Uint8Array): string {
  const r = new ByteReader(field);
  const need = type === "u8" ? 1 : type === "u16" ? 2 : type === "u32" ? 4 : type === "u64" ? 8 : type === "u128" ? 16 : 0;
  if (field.length < need) return `incomplete (${field.length} of ${need} bytes)`;
  switch (type) {
    case "u8":
      return String(r.u8(0));
    case "u16":
      return String(r.u16(0));
    case "u32":
      return String(r.u32(0));
    case "u64":
      return r.u64(0).toString();
    case "u128":
      return hex128(r.u128(0));
    case "bytes":
      return bytesToHex(field);
  }
}
