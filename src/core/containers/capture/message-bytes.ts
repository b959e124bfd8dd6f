/**
 * One captured message's bytes as a view may show them (captures.md "Privacy"): the bytes the capture
 * holds up to the first byte it never saw (never zero-filled), with a login's secret overwritten by a
 * mask byte so it never leaves the reader; the same bytes `extract --message` writes, which open as the
 * `request`/`reply` formats.
 */
import { readMessage } from "./capture.ts";
import type { CaptureSource } from "./source.ts";
import type { CaptureConnection, CaptureMessage } from "./types.ts";

/** The byte a masked secret is shown as: `*`, so the hex map and its text column read `****`. */
export const SECRET_MASK_BYTE = 0x2a;

/** A message's bytes for a view, or why there are none. */
export type ShownMessageBytes =
  | {
      readonly bytes: Uint8Array;
      /** The message's length by its header; `bytes` is shorter when the capture lost its tail. */
      readonly size: number;
      /** The first byte never captured (a gap), or null when every byte was. */
      readonly missingFrom: number | null;
      /** Where the login secret was masked, or null. */
      readonly masked: { readonly start: number; readonly end: number } | null;
    }
  | { readonly bytes: null; readonly why: string };

/** Reads one message back for a view: captured prefix, secret masked. */
export function shownMessageBytes(source: CaptureSource, conn: CaptureConnection, msg: CaptureMessage): ShownMessageBytes {
  const got = readMessage(source, conn, msg);
  if (!got || msg.size === null) return { bytes: null, why: "its header was never captured, so its size and bytes are unknown" };
  const missingFrom = got.missing.length ? got.missing[0]!.start : null;
  const bytes = missingFrom === null ? got.bytes : got.bytes.slice(0, missingFrom);
  let masked: { start: number; end: number } | null = null;
  if (msg.secret) {
    const start = Math.min(msg.secret.start, bytes.length);
    const end = Math.min(msg.secret.end, bytes.length);
    bytes.fill(SECRET_MASK_BYTE, start, end);
    masked = { start: msg.secret.start, end: msg.secret.end };
  }
  return { bytes, size: msg.size, missingFrom, masked };
}
