/** A container field's value as text, from its type alone (the JSON contract's `value`, tooltips). */
import type { FieldType } from "../fields.ts";
import { bytesToHex, hex128 } from "../values.ts";

/** Reads a little-endian field of `type` from its bytes: decimal for integers up to u64, 32 hex digits for u128, hex for bytes. */
export function fieldValueText(type: FieldType, field: Uint8Array): string {
  const view = new DataView(field.buffer, field.byteOffset, field.byteLength);
  const need = type === "u8" ? 1 : type === "u16" ? 2 : type === "u32" ? 4 : type === "u64" ? 8 : type === "u128" ? 16 : 0;
  if (field.length < need) return `incomplete (${field.length} of ${need} bytes)`;
  switch (type) {
    case "u8":
      return String(view.getUint8(0));
    case "u16":
      return String(view.getUint16(0, true));
    case "u32":
      return String(view.getUint32(0, true));
    case "u64":
      return view.getBigUint64(0, true).toString();
    case "u128":
      return hex128((view.getBigUint64(8, true) << 64n) | view.getBigUint64(0, true));
    case "bytes":
      return bytesToHex(field);
  }
}
