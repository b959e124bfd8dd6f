/**
 * Redaction that keeps the verdicts: a copy whose payloads (and, on request, user header values and
 * message ids) are replaced by a recognisable filler, whose checksums are re-made so that every
 * diagnostic of the original (code, severity, byte range) is raised again and no other.
 */
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { findUserHeadersFault } from "../../format/user-headers.ts";
import { ByteReader, readU32 } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { computeBatchChecksum } from "../../checksum/verify.ts";
import { analyzeWith } from "../walk/analyze.ts";
import type { Analysis } from "../model/model.ts";
import { computedChecksumOf, frameEnd, frameUserHeadersLength } from "../model/frame-columns.ts";

/** What to replace besides the payloads. */
export interface RedactOptions {
  /** Replace the value of every user header (keys, kinds and lengths stay). Default false. */
  readonly userHeaders?: boolean;
  /** Replace every message id. Default false. */
  readonly ids?: boolean;
}

/** A redacted copy and what was replaced in it. */
export interface Redaction {
  readonly bytes: Uint8Array;
  /** Payloads (complete or cut) with at least one byte replaced. */
  readonly payloads: number;
  readonly userHeaderValues: number;
  readonly ids: number;
  /** Bytes past the last batch the walk could step into (after a batch_length < 256), replaced too. */
  readonly trailingBytes: number;
}

/** The filler's pattern, repeated from the start of every replaced region; "redacted" stands in where the original already read so. */
export const FILLER = "REDACTED";
const FILLER_BYTES = new TextEncoder().encode(FILLER);
const ALT_FILLER_BYTES = new TextEncoder().encode(FILLER.toLowerCase());

// Writes the filler over [start, end) and returns whether anything changed; a region that
// already held the filler gets the other spelling, so a nonempty region always changes.
function fill(out: Uint8Array, start: number, end: number): boolean {
  if (end <= start) return false;
  const before = out.slice(start, end);
  for (let i = start; i < end; i++) out[i] = FILLER_BYTES[(i - start) % FILLER_BYTES.length] as number;
  if (!equalBytes(before, out.subarray(start, end))) return true;
  for (let i = start; i < end; i++) out[i] = ALT_FILLER_BYTES[(i - start) % ALT_FILLER_BYTES.length] as number;
  return true;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Fixed-width TLV kinds (bool and the numbers) get zero bytes: always a valid value, and a plain "0".
const FREE_KINDS = new Set([1, 2]);

/**
 * Replaces the value of every header in a TLV block, entry heads untouched. A malformed block keeps
 * the bytes its fault is read from (the head where decoding stops and the byte after it, which a
 * bool's value check reads), so it stays malformed for the same reason; the bytes after are filled.
 */
function redactUserHeaders(out: Uint8Array, start: number, end: number): number {
  const fault = findUserHeadersFault(out.subarray(start, end));
  const validEnd = fault ? start + fault.at : end;
  let values = 0;
  let pos = start;
  for (let entry = 0; pos < validEnd; entry++) {
    const kind = out[pos] as number;
    const length = readU32(out, pos + 1);
    const valueStart = pos + 5;
    // Odd entries are values; keys stay so a reader still sees which headers there were.
    if (entry % 2 === 1) {
      if (FREE_KINDS.has(kind)) fill(out, valueStart, valueStart + length);
      else out.fill(0, valueStart, valueStart + length);
      values++;
    }
    pos = valueStart + length;
  }
  if (fault) fill(out, Math.min(end, validEnd + 6), end);
  return values;
}

/** Makes the redacted copy of bytes as `analysis` (made with the same startOffset) describes them. */
export function redactCopy(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis, options: RedactOptions = {}): Redaction {
  const out = bytes.slice();
  const r = new ByteReader(out);
  const w = new ByteWriter(out);
  const f = analysis.frames;
  let payloads = 0;
  let userHeaderValues = 0;
  let ids = 0;

  for (let i = 0; i < f.count; i++) {
    const s = f.start[i] as number;
    const payloadEnd = s + FRAME_HEADER_SIZE + (f.payloadLength[i] as number);
    if (fill(out, s + FRAME_HEADER_SIZE, payloadEnd)) payloads++;
    if (options.userHeaders && frameUserHeadersLength(f, i) > 0) userHeaderValues += redactUserHeaders(out, payloadEnd, frameEnd(f, i));
    if (options.ids && fill(out, s + 8, s + 24)) ids++;
  }
  for (const b of analysis.batches) {
    const t = b.truncatedFrame;
    if (!t) continue;
    // A cut frame is never checksummed nor TLV-checked: its readable parts can simply be filled.
    if (options.ids && fill(out, Math.min(t.end, t.start + 8), Math.min(t.end, t.start + 24))) ids++;
    if (!t.headerComplete) continue;
    const payloadEnd = Math.min(t.end, t.start + FRAME_HEADER_SIZE + r.u32(t.start + 36));
    if (fill(out, t.start + FRAME_HEADER_SIZE, payloadEnd)) payloads++;
    if (options.userHeaders) fill(out, payloadEnd, t.end);
  }
  // After a batch_length < 256 the walk stops; what follows is likely more batches, payloads and all.
  const last = analysis.batches.at(analysis.batches.length - 1);
  const trailingStart = last ? last.end : bytes.length;
  const trailingBytes = last && last.end < bytes.length && fill(out, trailingStart, bytes.length) ? bytes.length - trailingStart : 0;

  remakeChecksums(xxh, w, analysis);
  return { bytes: out, payloads, userHeaderValues, ids, trailingBytes };
}

/**
 * Re-makes every frame checksum over the redacted bytes, then every batch checksum over those, each
 * matching where the original's matched and differing (the computed value with every bit flipped)
 * where it did not. A mismatch is never kept as the original stored value: that value may be the
 * checksum of the original payload, and would let anyone confirm a guess at it.
 */
function remakeChecksums(xxh: Xxh3, w: ByteWriter, analysis: Analysis): void {
  const out = w.bytes;
  const r = new ByteReader(out);
  const f = analysis.frames;
  const flip = 0xffff_ffff_ffff_ffffn;
  for (let i = 0; i < f.count; i++) {
    const s = f.start[i] as number;
    const stored = r.u64(s);
    const matched = computedChecksumOf(f, i, stored) === stored;
    const computed = xxh.hash(out.subarray(s + 8, frameEnd(f, i)));
    w.u64(s, matched ? computed : computed ^ flip);
  }
  for (const b of analysis.batches) {
    if (!b.header || b.computedChecksum === null) continue;
    const matched = b.computedChecksum === b.header.batchChecksum;
    const computed = computeBatchChecksum(xxh, out, b.start, f.start, b.firstFrame, b.firstFrame + b.frameCount);
    w.u64(b.start + 40, matched ? computed : computed ^ flip);
  }
}

/** The fields of a diagnostic that redaction keeps: everything but the message (which quotes checksum values). */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.code} ${d.severity} ${d.start}..${d.end} b${d.batch ?? "-"} f${d.frame ?? "-"}`;
}

/** The diagnostics on which two analyses disagree (by diagnosticKey), at most `limit` of them; empty when they agree. */
export function diagnosticDifferences(original: Analysis, redacted: Analysis, limit = 10): string[] {
  const a = original.diagnostics.map(diagnosticKey);
  const b = redacted.diagnostics.map(diagnosticKey);
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < limit; i++) {
    if (a[i] !== b[i]) out.push(`#${i}: original ${a[i] ?? "(none)"}, redacted ${b[i] ?? "(none)"}`);
  }
  if (out.length === 0 && original.diagnosticsOmitted !== redacted.diagnosticsOmitted)
    out.push(`omitted: ${original.diagnosticsOmitted} vs ${redacted.diagnosticsOmitted}`);
  return out;
}

/** Redacts, re-analyses the copy with the same start, and says whether its diagnostics are the original's. */
export function redactAndVerify(
  xxh: Xxh3,
  bytes: Uint8Array,
  analysis: Analysis,
  options: RedactOptions & { readonly startOffset?: number } = {},
): Redaction & { readonly analysis: Analysis; readonly differences: string[] } {
  const redaction = redactCopy(xxh, bytes, analysis, options);
  const again = analyzeWith(xxh, redaction.bytes, { startOffset: options.startOffset ?? 0 });
  return { ...redaction, analysis: again, differences: diagnosticDifferences(analysis, again) };
}
