/** Byte strings rendered for copying: hex, xxd, base64, a C array and a Rust byte string. */
import { hexOffset } from "../format/values.ts";

/** The copy formats the page offers. */
export type CopyFormat = "hex" | "xxd" | "base64" | "c" | "rust";

/** Labels of the copy formats, in menu order. */
export const COPY_FORMATS: readonly { readonly id: CopyFormat; readonly label: string }[] = [
  { id: "hex", label: "Hex" },
  { id: "xxd", label: "xxd" },
  { id: "base64", label: "Base64" },
  { id: "c", label: "C array" },
  { id: "rust", label: "Rust byte string" },
];

const h2 = (b: number) => b.toString(16).padStart(2, "0");

/** Plain lowercase hex, no separators. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += h2(b);
  return out;
}

/** xxd-style lines; `baseOffset` is the absolute offset of bytes[0], `mark` (absolute, half-open) adds a caret line under marked bytes. */
export function toXxd(bytes: Uint8Array, baseOffset = 0, mark?: { start: number; end: number }): string {
  const lines: string[] = [];
  const first = baseOffset - (baseOffset % 16);
  for (let row = first; row < baseOffset + bytes.length; row += 16) {
    let hex = "";
    let ascii = "";
    let marks = "";
    for (let i = 0; i < 16; i++) {
      const abs = row + i;
      const inside = abs >= baseOffset && abs < baseOffset + bytes.length;
      const b = inside ? (bytes[abs - baseOffset] as number) : -1;
      const cell = b < 0 ? "  " : h2(b);
      hex += cell + (i % 2 === 1 ? " " : "");
      ascii += b < 0 ? " " : b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".";
      const marked = mark !== undefined && inside && abs >= mark.start && abs < mark.end;
      marks += (marked ? "^^" : "  ") + (i % 2 === 1 ? " " : "");
    }
    lines.push(`${hexOffset(row, 8, "")}: ${hex} ${ascii.trimEnd()}`.trimEnd());
    if (mark && marks.trim() !== "") lines.push(`${" ".repeat(10)}${marks.trimEnd()}`);
  }
  return lines.join("\n");
}

/** Standard base64 (RFC 4648, with padding). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // eslint-disable-next-line no-restricted-syntax -- 32 Ki bytes at a time, bounded by the loop
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A C array declaration with 12 bytes per line. */
export function toCArray(bytes: Uint8Array, name = "batch"): string {
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += 12) rows.push("  " + Array.from(bytes.subarray(i, i + 12), (b) => `0x${h2(b)}`).join(", "));
  return `const unsigned char ${name}[${bytes.length}] = {\n${rows.join(",\n")}\n};`;
}

/** A Rust byte string literal, printable ASCII kept, everything else escaped. */
export function toRustByteString(bytes: Uint8Array): string {
  let out = 'b"';
  for (const b of bytes) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += "\\\\";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${h2(b)}`;
  }
  return out + '"';
}

/** Renders bytes in a copy format. */
export function formatBytes(bytes: Uint8Array, format: CopyFormat, baseOffset = 0): string {
  switch (format) {
    case "hex":
      return toHex(bytes);
    case "xxd":
      return toXxd(bytes, baseOffset);
    case "base64":
      return toBase64(bytes);
    case "c":
      return toCArray(bytes);
    case "rust":
      return toRustByteString(bytes);
  }
}
