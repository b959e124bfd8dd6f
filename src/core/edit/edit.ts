/** Edits for teaching and what-if: set a field, recompute checksums, stamp as the server, make a producer batch. All return new bytes. */
import { BATCH_FIELD, BATCH_HEADER_LAYOUT, FRAME_FIELD, FRAME_HEADER_SIZE, type FieldSpec } from "../../format/fields.ts";
import { readField, writeField as writeFieldValue, writeHeader } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { hex64 } from "../../format/values.ts";
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { computeBatchChecksum, frameChecksum } from "../../checksum/verify.ts";
import { analyzeWith } from "../walk/analyze.ts";
import type { ServerStamp } from "../walk/encode.ts";
import type { Analysis } from "../model/model.ts";
import { frameBatch, frameEnd, frameIndexInBatch } from "../model/frame-columns.ts";

const BATCH_CHECKSUM = BATCH_FIELD.batch_checksum;
const FRAME_CHECKSUM = FRAME_FIELD.checksum;

/** The stamp that makes a batch a producer batch again: every server-stamped field zero. */
const PRODUCER_STAMP = Object.fromEntries(BATCH_HEADER_LAYOUT.filter((f) => f.role === "server-stamped").map((f) => [f.jsonKey, 0n])) as ServerStamp;

/** One checksum an edit changed: where, and from what to what. */
export interface ChecksumChange {
  readonly what: string;
  readonly start: number;
  readonly before: string;
  readonly after: string;
}

/** Writes value into a copy of bytes as the field `spec` placed at `base` (u32, u64, u128 little-endian; bytes as given). */
export function writeField(bytes: Uint8Array, base: number, spec: FieldSpec, value: bigint | Uint8Array): Uint8Array {
  const w = new ByteWriter(bytes.slice());
  const at = base + spec.offset;
  if (!w.has(at, spec.size)) return w.bytes;
  if (value instanceof Uint8Array) w.set(at, value.subarray(0, spec.size));
  // A number for a run of bytes (the reserved area) clears it.
  else if (spec.type === "bytes") w.fill(0, at, at + spec.size);
  else {
    const v = BigInt.asUintN(spec.size * 8, value);
    writeFieldValue(w, base, spec, spec.type === "u64" || spec.type === "u128" ? v : Number(v));
  }
  return w.bytes;
}

/** Recomputes every complete frame's checksum, then every batch checksum, and lists what changed. */
export function recomputeChecksums(
  xxh: Xxh3,
  bytes: Uint8Array,
  analysis: Analysis = analyzeWith(xxh, bytes),
): { bytes: Uint8Array; changes: ChecksumChange[] } {
  const out = bytes.slice();
  const r = new ByteReader(out);
  const w = new ByteWriter(out);
  const changes: ChecksumChange[] = [];
  const f = analysis.frames;
  for (let i = 0; i < f.count; i++) {
    const s = f.start[i] as number;
    const computed = frameChecksum(xxh, out, s, frameEnd(f, i));
    const stored = readField(r, s, FRAME_CHECKSUM);
    if (computed !== stored) {
      writeFieldValue(w, s, FRAME_CHECKSUM, computed);
      changes.push({
        what: `batch ${frameBatch(analysis.batches, i)} frame ${frameIndexInBatch(analysis.batches, i)} ${FRAME_CHECKSUM.name}`,
        start: s + FRAME_CHECKSUM.offset,
        before: hex64(stored),
        after: hex64(computed),
      });
    }
  }
  for (const b of analysis.batches) {
    if (!b.header || b.computedChecksum === null) continue;
    const computed = computeBatchChecksum(xxh, out, b.start, f.start, b.firstFrame, b.firstFrame + b.frameCount);
    const stored = readField(r, b.start, BATCH_CHECKSUM);
    if (computed !== stored) {
      writeFieldValue(w, b.start, BATCH_CHECKSUM, computed);
      changes.push({ what: `batch ${b.index} ${BATCH_CHECKSUM.name}`, start: b.start + BATCH_CHECKSUM.offset, before: hex64(stored), after: hex64(computed) });
    }
  }
  return { bytes: out, changes };
}

/** Stamps batch `index` as the server does (partition, base offset, base time) and recomputes its checksum. */
export function stampAsServer(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis, index: number, stamp: ServerStamp): Uint8Array {
  const b = analysis.batches.at(index);
  if (!b || !b.header) return bytes.slice();
  const w = new ByteWriter(bytes.slice());
  writeHeader(w, b.start, BATCH_HEADER_LAYOUT, stamp);
  if (b.computedChecksum !== null) {
    writeFieldValue(w, b.start, BATCH_CHECKSUM, computeBatchChecksum(xxh, w.bytes, b.start, analysis.frames.start, b.firstFrame, b.firstFrame + b.frameCount));
  }
  return w.bytes;
}

/** Turns batch `index` back into what a producer sends: stamped fields zero, checksum recomputed. */
export function makeProducerBatch(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis, index: number): Uint8Array {
  return stampAsServer(xxh, bytes, analysis, index, PRODUCER_STAMP);
}

/** A copy with every payload and user-header byte zeroed, keeping lengths and structure. */
export function redactPayloads(bytes: Uint8Array, analysis: Analysis): Uint8Array {
  const out = bytes.slice();
  const f = analysis.frames;
  for (let i = 0; i < f.count; i++) out.fill(0, (f.start[i] as number) + FRAME_HEADER_SIZE, frameEnd(f, i));
  for (const b of analysis.batches) {
    const t = b.truncatedFrame;
    if (t && t.headerComplete) out.fill(0, t.start + FRAME_HEADER_SIZE, t.end);
  }
  return out;
}

/** The bytes of batch `index` alone (clamped to the input). */
export function batchBytes(bytes: Uint8Array, analysis: Analysis, index: number): Uint8Array {
  const b = analysis.batches.at(index);
  return b ? bytes.slice(b.start, b.end) : new Uint8Array(0);
}
