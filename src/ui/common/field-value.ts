/** Field values as text for editing, and text parsed back into what writeField takes, checked against the field's width. */
import type { FieldSpec } from "../../format/fields.ts";
import { readUintLE } from "../../format/reader.ts";
import { bytesToHex, hex64, hex128 } from "../../format/values.ts";

/** A parsed field value, or why the text is not one. */
export type ParsedField = { readonly ok: true; readonly value: bigint | Uint8Array } | { readonly ok: false; readonly error: string };

/** The field's current value as editable text: checksums as 16 hex digits, ids as 0x + 32 hex digits, bytes as hex, others decimal. */
export function fieldText(bytes: Uint8Array, base: number, spec: FieldSpec): string {
  const at = base + spec.offset;
  if (spec.type === "bytes") return bytesToHex(bytes.subarray(at, at + spec.size));
  const v = readUintLE(bytes, at, spec.size);
  if (spec.role === "checksum") return hex64(v);
  if (spec.type === "u128") return "0x" + hex128(v);
  return v.toString();
}

/** Parses text for a field: decimal or 0x hex integers (16 bare hex digits for checksums), a UUID for the id (wire order), hex for bytes. */
export function parseFieldText(text: string, spec: FieldSpec): ParsedField {
  const t = text.trim().replace(/_/g, "");
  if (spec.type === "bytes") {
    const digits = t.replace(/^0x/i, "").replace(/\s+/g, "");
    if (digits.length % 2 !== 0 || /[^0-9a-f]/i.test(digits)) return { ok: false, error: "enter hex bytes, e.g. 00 01 ff" };
    if (digits.length / 2 > spec.size) return { ok: false, error: `at most ${spec.size} bytes` };
    const out = new Uint8Array(spec.size);
    for (let i = 0; i < digits.length / 2; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
    return { ok: true, value: out };
  }
  if (spec.type === "u128" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t)) {
    // A UUID goes on the wire in the order written, as the explorer reads ids.
    const hex = t.replace(/-/g, "");
    let v = 0n;
    for (let i = 15; i >= 0; i--) v = (v << 8n) | BigInt(parseInt(hex.slice(2 * i, 2 * i + 2), 16));
    return { ok: true, value: v };
  }
  let v: bigint;
  try {
    if (spec.role === "checksum" && /^[0-9a-f]{16}$/i.test(t)) v = BigInt("0x" + t);
    else if (/^0x[0-9a-f]+$/i.test(t) || /^\d+$/.test(t)) v = BigInt(t);
    else return { ok: false, error: spec.role === "checksum" ? "enter 16 hex digits or a number" : "enter a number (decimal or 0x hex)" };
  } catch {
    return { ok: false, error: "not a number" };
  }
  if (v >= 1n << BigInt(spec.size * 8)) return { ok: false, error: `does not fit ${spec.size * 8} bits` };
  return { ok: true, value: v };
}
