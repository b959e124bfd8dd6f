/**
 * Shared builders for the unit tests: byte surgery on encoded batches, checksum
 * refreshers written from batch-format.md (not from the decoder), a seeded PRNG,
 * and small views of an Analysis.
 */
import { loadXxh3, type Xxh3 } from "../src/checksum/xxh3.ts";
import { analyze } from "../src/core/walk/analyze.ts";
import { concat, encodeBatch, stampBatch, type BatchSpec, type MessageSpec } from "../src/core/walk/encode.ts";
import type { Analysis } from "../src/core/model/model.ts";
import type { DiagnosticCode, Severity } from "../src/format/diagnostics.ts";

/** The shared XXH3 kernel (checked against the spec's golden values in src/checksum/xxh3.test.ts). */
export const xxh: Xxh3 = await loadXxh3();

export { concat };

/** Batch header and frame header sizes, written out from the spec rather than imported. */
export const HEADER = 256;
export const FRAME_HEADER = 48;

// ---------------------------------------------------------------------------
// little-endian field access

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const getU32 = (b: Uint8Array, pos: number): number => view(b).getUint32(pos, true);
export const getU64 = (b: Uint8Array, pos: number): bigint => view(b).getBigUint64(pos, true);
export function setU32(b: Uint8Array, pos: number, v: number): void {
  view(b).setUint32(pos, v, true);
}
export function setU64(b: Uint8Array, pos: number, v: bigint): void {
  view(b).setBigUint64(pos, v, true);
}

/** Parses hex, ignoring whitespace. */
export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, "");
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) throw new Error(`bad hex: ${hex.slice(0, 40)}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

// ---------------------------------------------------------------------------
// batch field offsets (batch-format.md), relative to the batch / frame start

export const B = {
  partitionId: 0,
  baseOffset: 8,
  baseTimestamp: 16,
  originTimestamp: 24,
  batchLength: 32,
  batchChecksum: 40,
  messageCount: 48,
  reserved: 52,
} as const;
export const F = {
  checksum: 0,
  id: 8,
  offsetDelta: 24,
  timestampDelta: 28,
  userHeadersLength: 32,
  payloadLength: 36,
  reserved: 40,
} as const;

/** Starts of the frames of the batch at batchStart, walked by their length fields while each fits the batch and the input. */
export function frameStartsOf(bytes: Uint8Array, batchStart = 0): number[] {
  const batchEnd = Math.min(bytes.length, batchStart + Number(getU64(bytes, batchStart + B.batchLength)));
  const starts: number[] = [];
  let f = batchStart + HEADER;
  while (f + FRAME_HEADER <= batchEnd) {
    const end = f + FRAME_HEADER + getU32(bytes, f + F.payloadLength) + getU32(bytes, f + F.userHeadersLength);
    if (end > batchEnd) break;
    starts.push(f);
    f = end;
  }
  return starts;
}

/** Recomputes and stores the checksum of the frame at frameStart: XXH3-64 of frame bytes 8..end. */
export function refreshFrameChecksum(bytes: Uint8Array, frameStart: number): void {
  const end = frameStart + FRAME_HEADER + getU32(bytes, frameStart + F.payloadLength) + getU32(bytes, frameStart + F.userHeadersLength);
  setU64(bytes, frameStart, xxh.hash(bytes.subarray(frameStart + 8, end)));
}

/**
 * The batch checksum per the spec: XXH3-64 over partition_id, base_offset, base_timestamp,
 * origin_timestamp, batch_length (40 bytes), message_count (4), then each given frame's
 * stored 8 checksum bytes. By default the frames are the complete ones walked from the header.
 */
export function batchChecksum(bytes: Uint8Array, batchStart = 0, frames = frameStartsOf(bytes, batchStart)): bigint {
  const parts = [bytes.subarray(batchStart, batchStart + 40), bytes.subarray(batchStart + 48, batchStart + 52)];
  for (const f of frames) parts.push(bytes.subarray(f, f + 8));
  return xxh.hash(concat(parts));
}

/** Recomputes and stores the batch checksum of the batch at batchStart (over the given or walked frames). */
export function refreshBatchChecksum(bytes: Uint8Array, batchStart = 0, frames?: number[]): void {
  setU64(bytes, batchStart + B.batchChecksum, batchChecksum(bytes, batchStart, frames));
}

// ---------------------------------------------------------------------------
// builders

/** Messages with distinct small payloads and ids, offset deltas = index, timestamp deltas 0, 10, 20, … */
export function messages(n: number, extra: Partial<MessageSpec> = {}): MessageSpec[] {
  return Array.from({ length: n }, (_, i) => ({ payload: `message-${i}`, id: BigInt(i + 1), timestampDelta: 10 * i, ...extra }));
}

/** A valid producer batch of n messages (origin 1_700_000_000_000_000 µs). */
export function producerBatch(n: number, spec: Partial<BatchSpec> = {}): Uint8Array {
  return encodeBatch(xxh, { originTimestamp: 1_700_000_000_000_000n, messages: messages(n), ...spec });
}

/** A valid stamped batch of n messages. */
export function stampedBatch(n: number, stamp: { partitionId?: bigint; baseOffset: bigint; baseTimestamp: bigint }, spec: Partial<BatchSpec> = {}): Uint8Array {
  return stampBatch(xxh, producerBatch(n, spec), { partitionId: stamp.partitionId ?? 1n, baseOffset: stamp.baseOffset, baseTimestamp: stamp.baseTimestamp });
}

// ---------------------------------------------------------------------------
// analysis views

export { analyze };

/** The fields of a diagnostic a test compares (everything but the message). */
export interface Finding {
  code: DiagnosticCode;
  severity: Severity;
  start: number;
  end: number;
  batch: number | null;
  frame: number | null;
}

export function findings(a: Analysis, code?: DiagnosticCode): Finding[] {
  return a.diagnostics
    .filter((d) => code === undefined || d.code === code)
    .map(({ code, severity, start, end, batch, frame }) => ({ code, severity, start, end, batch, frame }));
}

export function codes(a: Analysis): DiagnosticCode[] {
  return a.diagnostics.map((d) => d.code);
}

// ---------------------------------------------------------------------------
// seeded PRNG (mulberry32): deterministic "random" bytes for hostile inputs

export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytes(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 4) {
    const v = Math.floor(next() * 4294967296);
    out[i] = v & 0xff;
    if (i + 1 < length) out[i + 1] = (v >>> 8) & 0xff;
    if (i + 2 < length) out[i + 2] = (v >>> 16) & 0xff;
    if (i + 3 < length) out[i + 3] = v >>> 24;
  }
  return out;
}
