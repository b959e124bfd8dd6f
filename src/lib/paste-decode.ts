/** Turns pasted text into bytes: xxd dumps, hex (with or without spaces, 0x prefixes, commas) or base64. */

/** The bytes a paste held and the form they were read from, or why the text is none of the forms. */
export type PasteResult =
  { readonly ok: true; readonly bytes: Uint8Array; readonly form: "xxd" | "hex" | "base64" } | { readonly ok: false; readonly reason: string };

const XXD_LINE = /^\s*[0-9a-fA-F]+:\s+((?:[0-9a-fA-F]{2,4}\s?)+)/;

function fromHexDigits(digits: string): Uint8Array | null {
  if (digits.length % 2 !== 0 || /[^0-9a-fA-F]/.test(digits)) return null;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function fromXxd(text: string): Uint8Array | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length === 0 || !lines.every((l) => XXD_LINE.test(l))) return null;
  let digits = "";
  for (const line of lines) {
    // xxd puts two spaces before the ASCII column; the hex groups end there.
    const afterOffset = line.slice(line.indexOf(":") + 1);
    const hexPart = afterOffset.split(/\s{2,}/).find((p) => p.trim() !== "") ?? "";
    digits += hexPart.replace(/\s+/g, "");
  }
  return fromHexDigits(digits);
}

function fromBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, "");
  if (compact.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return null;
  try {
    const binary = atob(compact.replace(/-/g, "+").replace(/_/g, "/"));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** Reads pasted text as xxd output, then plain hex, then base64. */
export function decodePastedText(text: string): PasteResult {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: "the clipboard text is empty" };
  const xxd = fromXxd(trimmed);
  if (xxd) return { ok: true, bytes: xxd, form: "xxd" };
  const hexDigits = trimmed.replace(/0x/gi, "").replace(/[\s,:;]+/g, "");
  const hex = fromHexDigits(hexDigits);
  if (hex) return { ok: true, bytes: hex, form: "hex" };
  const b64 = fromBase64(trimmed);
  if (b64) return { ok: true, bytes: b64, form: "base64" };
  return { ok: false, reason: "pasted text is not hex, an xxd dump or base64" };
}
