/** Edits for teaching and what-if: set a field, recompute checksums, stamp as the server, make a producer batch. All return new bytes. */
import { FRAME_HEADER_SIZE, type FieldSpec } from "../format/fields.ts";
import { hex64 } from "../format/values.ts";
import type { Xxh3 } from "../checksum/xxh3.ts";
import { computeBatchChecksum } from "../checksum/verify.ts";
import { analyzeWith } from "./analyze.ts";
import type { Analysis } from "./model.ts";

/** One checksum an edit changed: where, and from what to what. */
export interface ChecksumChange {
  readonly what: string;
  readonly start: number;
  readonly before: string;
  readonly after: string;
}

/** Writes value into a copy of bytes as the field `spec` placed at `base` (u32, u64, u128 little-endian; bytes as given). */
export function writeField(bytes: Uint8Array, base: number, spec: FieldSpec, value: bigint | Uint8Array): Uint8Array {
  const out = bytes.slice();
  const at = base + spec.offset;
  if (at + spec.size > out.length) return out;
  const view = new DataView(out.buffer);
  if (value instanceof Uint8Array) {
    out.set(value.subarray(0, spec.size), at);
    return out;
  }
  const v = BigInt.asUintN(spec.size * 8, value);
  if (spec.size === 4) view.setUint32(at, Number(v), true);
  else if (spec.size === 8) view.setBigUint64(at, v, true);
  else if (spec.size === 16) { view.setBigUint64(at, v & 0xffff_ffff_ffff_ffffn, true); view.setBigUint64(at + 8, v >> 64n, true); }
  else out.fill(0, at, at + spec.size);
  return out;
}

/** Recomputes every complete frame's checksum, then every batch checksum, and lists what changed. */
export function recomputeChecksums(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis = analyzeWith(xxh, bytes)): { bytes: Uint8Array; changes: ChecksumChange[] } {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const changes: ChecksumChange[] = [];
  const f = analysis.frames;
  for (let i = 0; i < f.count; i++) {
    const s = f.start[i] as number;
    const computed = xxh.hash(out.subarray(s + 8, f.end[i] as number));
    const stored = view.getBigUint64(s, true);
    if (computed !== stored) {
      view.setBigUint64(s, computed, true);
      changes.push({ what: `batch ${f.batch[i]} frame ${f.indexInBatch[i]} checksum`, start: s, before: hex64(stored), after: hex64(computed) });
    }
  }
  for (const b of analysis.batches) {
    if (!b.header || b.computedChecksum === null) continue;
    const computed = computeBatchChecksum(xxh, out, b.start, f.start, b.firstFrame, b.firstFrame + b.frameCount);
    const stored = view.getBigUint64(b.start + 40, true);
    if (computed !== stored) {
      view.setBigUint64(b.start + 40, computed, true);
      changes.push({ what: `batch ${b.index} batch_checksum`, start: b.start + 40, before: hex64(stored), after: hex64(computed) });
    }
  }
  return { bytes: out, changes };
}

/** Stamps batch `index` as the server does (partition, base offset, base time) and recomputes its checksum. */
export function stampAsServer(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis, index: number, stamp: { partitionId: bigint; baseOffset: bigint; baseTimestamp: bigint }): Uint8Array {
  const b = analysis.batches[index];
  if (!b || !b.header) return bytes.slice();
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  view.setBigUint64(b.start, stamp.partitionId, true);
  view.setBigUint64(b.start + 8, stamp.baseOffset, true);
  view.setBigUint64(b.start + 16, stamp.baseTimestamp, true);
  if (b.computedChecksum !== null) {
    view.setBigUint64(b.start + 40, computeBatchChecksum(xxh, out, b.start, analysis.frames.start, b.firstFrame, b.firstFrame + b.frameCount), true);
  }
  return out;
}

/** Turns batch `index` back into what a producer sends: stamped fields zero, checksum recomputed. */
export function makeProducerBatch(xxh: Xxh3, bytes: Uint8Array, analysis: Analysis, index: number): Uint8Array {
  return stampAsServer(xxh, bytes, analysis, index, { partitionId: 0n, baseOffset: 0n, baseTimestamp: 0n });
}

/** A copy with every payload and user-header byte zeroed, keeping lengths and structure. */
export function redactPayloads(bytes: Uint8Array, analysis: Analysis): Uint8Array {
  const out = bytes.slice();
  const f = analysis.frames;
  for (let i = 0; i < f.count; i++) out.fill(0, (f.start[i] as number) + FRAME_HEADER_SIZE, f.end[i] as number);
  for (const b of analysis.batches) {
    const t = b.truncatedFrame;
    if (t && t.headerComplete) out.fill(0, t.start + FRAME_HEADER_SIZE, t.end);
  }
  return out;
}

/** The bytes of batch `index` alone (clamped to the input). */
export function batchBytes(bytes: Uint8Array, analysis: Analysis, index: number): Uint8Array {
  const b = analysis.batches[index];
  return b ? bytes.slice(b.start, b.end) : new Uint8Array(0);
}

