/** Formatting of decoded values: fixed-width hex, message ids as u128 and UUID, microsecond timestamps. */
import { readUintLE } from "./reader.ts";

/** A u64 as 16 lowercase hex digits (the JSON contract's checksum form). */
export function hex64(value: bigint): string {
  return value.toString(16).padStart(16, "0");
}

/** A u128 as 32 lowercase hex digits (the JSON contract's id form). */
export function hex128(value: bigint): string {
  return value.toString(16).padStart(32, "0");
}

/** Bytes as lowercase hex, optionally separated. */
export function bytesToHex(bytes: Uint8Array, separator = ""): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0 && separator) out += separator;
    out += (bytes[i] as number).toString(16).padStart(2, "0");
  }
  return out;
}

/** A decoded message id: the u128 value, the 16 wire bytes read as a UUID, and that UUID's version. */
export interface MessageId {
  readonly value: bigint;
  /** The UUID spelled from the wire bytes in order (Rust SDK convention). */
  readonly uuid: string;
  /** The version nibble of that UUID (0..15); meaningful when the variant is RFC 4122/9562. */
  readonly version: number;
  /** True when the variant bits say RFC 4122/9562. */
  readonly rfcVariant: boolean;
  /** For a v7 UUID, its Unix time in milliseconds; otherwise null. */
  readonly unixMillis: number | null;
}

/** Decodes the 16 id bytes of a frame header. */
export function decodeMessageId(wire: Uint8Array): MessageId {
  const value = readUintLE(wire, 0, 16);
  const h = bytesToHex(wire);
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  const version = ((wire[6] ?? 0) >> 4) & 0xf;
  const rfcVariant = (((wire[8] ?? 0) >> 6) & 0x3) === 0b10;
  let unixMillis: number | null = null;
  if (version === 7 && rfcVariant) {
    unixMillis = 0;
    for (let i = 0; i < 6; i++) unixMillis = unixMillis * 256 + (wire[i] ?? 0);
  }
  return { value, uuid, version, rfcVariant, unixMillis };
}

/** A microsecond Unix timestamp as an ISO 8601 date with microseconds, or null when out of range. */
export function microsToIso(micros: bigint): string | null {
  const millis = micros / 1000n;
  if (millis > 8_640_000_000_000_000n) return null;
  const date = new Date(Number(millis));
  if (Number.isNaN(date.getTime())) return null;
  const frac = (micros % 1_000_000n).toString().padStart(6, "0");
  // Drop the ".sssZ" tail rather than cutting at a fixed index: years past 9999 are spelled "+010000-…".
  return `${date.toISOString().replace(/\.\d{3}Z$/, "")}.${frac}Z`;
}

/** A millisecond Unix time (a v7 UUID's) as an ISO 8601 date, or null when no Date can hold it. */
export function millisToIso(millis: number): string | null {
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Printable ASCII for one byte, or a dot, as hex dumps show it. */
export function asciiOf(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : ".";
}

// One formatter for every count: toLocaleString("en-US") builds one per call, which the hex map's scroll paid
// on every frame (the Overview's slider text). Made at first need: an Intl formatter maps about 7 MiB of locale
// data, which the CLI, whose whole-integer counts are grouped below, then never pays.
let count: Intl.NumberFormat | null = null;

/** A count with thousands separators, independent of the page's locale ("1,234"). */
export function formatCount(n: number): string {
  // Whole numbers as en-US groups them (digits in threes, a leading minus); -0, fractions and the rest: Intl.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
  return (count ??= new Intl.NumberFormat("en-US")).format(n);
}

/**
 * "1 byte" / "3 bytes": the count, then the singular or plural word. `count` spells the number
 * (String by default; formatCount for tables that group digits).
 */
export function plural(n: number | bigint, one: string, many = `${one}s`, count: (n: number | bigint) => string = String): string {
  return `${count(n)} ${n === 1 || n === 1n ? one : many}`;
}

/** A byte position as lowercase hex padded to `digits` (8 by default, 0 for none), after `prefix` ("0x"; "" for a hex dump's row label). */
export function hexOffset(offset: number, digits = 8, prefix = "0x"): string {
  return `${prefix}${offset.toString(16).padStart(digits, "0")}`;
}

/** How timeText words the cases no date shows. */
export interface TimeWording {
  /** Text for 0 (unset), or undefined to show 0 as a date. */
  readonly zero?: string;
  /** Text for a value past the last date JavaScript can hold. */
  readonly outOfRange: (micros: bigint) => string;
}

/** A microsecond timestamp as an ISO date with microseconds, or the caller's wording for 0 and for out-of-range values. */
export function timeText(micros: bigint, wording: TimeWording): string {
  if (micros === 0n && wording.zero !== undefined) return wording.zero;
  return microsToIso(micros) ?? wording.outOfRange(micros);
}
