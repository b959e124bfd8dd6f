/** Payload and id renderings for the frame inspector: text, pretty JSON, xxd hex, id facts (pure, no DOM). */
import { toXxd } from "../../lib/byte-formats.ts";
import { hex128, type MessageId, plural, millisToIso } from "../../format/values.ts";
import { formatCount, valueOrderId } from "../common/cell-text.ts";

/** Bytes shown in a hex dump at most. */
export const HEX_CAP = 64 * 1024;
/** Bytes decoded as text at most. */
export const TEXT_CAP = 256 * 1024;
/** Largest payload tried as JSON. */
export const JSON_CAP = 1024 * 1024;

/** A size in the largest whole unit: "64 KiB", "1 MiB", "300 bytes". */
export function sizeText(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return plural(n, "byte", undefined, (k) => formatCount(Number(k)));
}

/** The note under a capped view: "first 64 KiB of 1,234,567 bytes", or null when all is shown. */
export function capNote(shown: number, total: number): string | null {
  return shown < total ? `first ${sizeText(shown)} of ${formatCount(total)} bytes` : null;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * The payload as UTF-8 text (invalid sequences become U+FFFD), up to `cap` bytes; `bytes` may be only the
 * head of a payload of `total` bytes (read on demand).
 */
export function utf8Text(bytes: Uint8Array, cap = TEXT_CAP, total = bytes.length): { text: string; shown: number; total: number } {
  const shown = Math.min(cap, bytes.length);
  return { text: utf8.decode(bytes.subarray(0, shown)), shown, total };
}

/** The payload pretty-printed as JSON (two-space indent) when it parses, else why not; `total` as in utf8Text. */
export function prettyJson(bytes: Uint8Array, cap = JSON_CAP, total = bytes.length): { ok: true; text: string } | { ok: false; reason: string } {
  if (total === 0) return { ok: false, reason: "the payload is empty" };
  if (total > cap) return { ok: false, reason: `the payload is larger than ${sizeText(cap)}, not parsed` };
  if (bytes.length < total) return { ok: false, reason: `only ${sizeText(bytes.length)} of the payload was read` };
  const text = utf8.decode(bytes);
  try {
    return { ok: true, text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * xxd-style lines: "00000000: 6669 7273 742d 7061 796c 6f61 64         first-payload",
 * 16 bytes a line in pairs, offsets relative to the block, up to `cap` bytes; `total` as in utf8Text.
 */
export function xxdLines(bytes: Uint8Array, cap = HEX_CAP, total = bytes.length): { lines: string[]; shown: number; total: number } {
  const shown = Math.min(cap, bytes.length);
  // The project's one xxd renderer (lib/byte-formats.ts), offsets relative to the block.
  const lines = shown === 0 ? [] : toXxd(bytes.subarray(0, shown)).split("\n");
  return { lines, shown, total };
}

/** One labelled fact about a message id. */
export interface IdFact {
  readonly label: string;
  readonly value: string;
}

function versionText(id: MessageId): string {
  if (!id.rfcVariant) return "none: the variant bits are not RFC 9562";
  if (id.version < 1 || id.version > 8) return `none: version nibble ${id.version} is not a defined UUID version`;
  return `v${id.version}`;
}

/**
 * Facts about an id: the u128 (32 hex digits), the UUID in wire order (Rust SDK) with its
 * version and v7 time, and the UUID of the u128 value (Node SDK byte order) when that one is a UUID.
 */
export function idFacts(id: MessageId): IdFact[] {
  const facts: IdFact[] = [
    { label: "u128", value: hex128(id.value) },
    { label: "UUID (wire order)", value: id.uuid },
    { label: "Version", value: versionText(id) },
  ];
  if (id.unixMillis !== null) {
    facts.push({ label: "v7 time", value: millisToIso(id.unixMillis) ?? `${id.unixMillis} ms` });
  }
  const reversed = valueOrderId(id);
  if (!(id.rfcVariant && id.version >= 1 && id.version <= 8) && reversed.rfcVariant && reversed.version >= 1 && reversed.version <= 8) {
    facts.push({ label: "UUID (u128 value, Node SDK order)", value: `${reversed.uuid} (v${reversed.version})` });
    if (reversed.unixMillis !== null) facts.push({ label: "v7 time (u128 order)", value: millisToIso(reversed.unixMillis) ?? `${reversed.unixMillis} ms` });
  }
  return facts;
}
