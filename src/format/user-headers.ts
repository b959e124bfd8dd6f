/** Best-effort decoding of a user headers block as Iggy TLV (the server treats the block as opaque). */
import { ByteReader, readU32 } from "./reader.ts";
import { bytesToHex } from "./values.ts";

/** A TLV kind: 1..15 as Iggy's SDKs define them (16..255 decode as unknown kinds, batch-format.md "User headers"). */
export const HEADER_KINDS = ["", "raw", "string", "bool", "i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "f32", "f64"] as const;

/** Exact value widths of the fixed-size kinds by kind number; null means any length 1..255 (the Wireshark dissector reads it too). */
export const HEADER_KIND_WIDTHS: readonly (number | null)[] = [0, null, null, 1, 1, 2, 4, 8, 16, 1, 2, 4, 8, 16, 4, 8];
const WIDTH = HEADER_KIND_WIDTHS;

/** One decoded TLV entry: its kind, where its value sits in the block, and the value shown as text. */
export interface TlvValue {
  readonly kind: number;
  readonly kindName: string;
  /** Start of the value bytes, relative to the block. */
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

/** One user header: a key entry followed by a value entry. */
export interface UserHeader {
  readonly key: TlvValue;
  readonly value: TlvValue;
}

/** The outcome of decoding: the entries, or where and why the block stops being TLV. */
export type UserHeadersResult = { readonly ok: true; readonly headers: UserHeader[] } | { readonly ok: false; readonly at: number; readonly reason: string };

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** The shortest decimal that reads back as the same f32 (0.1, not 0.10000000149011612). */
export function shortestFloat32(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(value.toPrecision(digits));
    if (Math.fround(text) === value) return String(text);
  }
  return String(value);
}

/** Renders a TLV value of a fixed or free kind as text. */
export function renderTlvValue(kind: number, bytes: Uint8Array): string {
  const r = new ByteReader(bytes);
  switch (kind) {
    case 2:
      return utf8.decode(bytes);
    case 3:
      return bytes[0] === 1 ? "true" : "false";
    case 4:
      return String(r.i8(0));
    case 5:
      return String(r.i16(0));
    case 6:
      return String(r.i32(0));
    case 7:
      return String(r.i64(0));
    case 8:
      return String(r.i128(0));
    case 9:
      return String(r.u8(0));
    case 10:
      return String(r.u16(0));
    case 11:
      return String(r.u32(0));
    case 12:
      return String(r.u64(0));
    case 13:
      return String(r.u128(0));
    case 14:
      return shortestFloat32(r.f32(0));
    case 15:
      return String(r.f64(0));
    default:
      return bytesToHex(bytes, " ");
  }
}

/** The name of a TLV kind: Iggy's for 1..15, "unknown kind N" for the 16..255 newer SDKs may add. */
export function kindName(kind: number): string {
  return kind >= 1 && kind < HEADER_KINDS.length ? (HEADER_KINDS[kind] as string) : `unknown kind ${kind}`;
}

/** Decodes a nonempty block as alternating key/value TLV entries, or says where it is not TLV. */
export function decodeUserHeaders(block: Uint8Array): UserHeadersResult {
  return scanUserHeaders(block, true);
}

/** Where a nonempty block stops being TLV, or null when it is TLV; renders nothing, for the hot path. */
export function findUserHeadersFault(block: Uint8Array): { at: number; reason: string } | null {
  const result = scanUserHeaders(block, false);
  return result.ok ? null : result;
}

function scanUserHeaders(block: Uint8Array, render: boolean): UserHeadersResult {
  const entries: TlvValue[] = [];
  let count = 0;
  let pos = 0;
  while (pos < block.length) {
    if (block.length - pos < 5) return { ok: false, at: pos, reason: `entry at ${pos} has ${block.length - pos} bytes, a TLV head needs 5` };
    const kind = block[pos] as number;
    const length = readU32(block, pos + 1);
    // Kinds 16..255 pass Iggy's wire validation on purpose (newer SDKs may add kinds): an unknown kind, shown raw, not a fault.
    if (kind === 0) return { ok: false, at: pos, reason: `entry at ${pos} has kind 0, which is reserved` };
    if (length < 1 || length > 255) return { ok: false, at: pos, reason: `entry at ${pos} has length ${length}, TLV lengths are 1..255` };
    const width = kind < WIDTH.length ? WIDTH[kind] : null;
    if (width != null && length !== width)
      return { ok: false, at: pos, reason: `entry at ${pos} is ${HEADER_KINDS[kind]} of length ${length}, which needs ${width}` };
    if (kind === 3 && block[pos + 5] !== undefined && block[pos + 5]! > 1)
      return { ok: false, at: pos, reason: `entry at ${pos} is a bool with value ${block[pos + 5]}` };
    const valueStart = pos + 5;
    if (valueStart + length > block.length)
      return { ok: false, at: pos, reason: `entry at ${pos} declares ${length} bytes, ${block.length - valueStart} remain` };
    count++;
    if (render)
      entries.push({ kind, kindName: kindName(kind), offset: valueStart, length, text: renderTlvValue(kind, block.subarray(valueStart, valueStart + length)) });
    pos = valueStart + length;
  }
  if (count % 2 !== 0) return { ok: false, at: block.length, reason: `${count} entries, keys and values need an even count` };
  const headers: UserHeader[] = [];
  for (let i = 0; i < entries.length; i += 2) headers.push({ key: entries[i]!, value: entries[i + 1]! });
  return { ok: true, headers };
}
