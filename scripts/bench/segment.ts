/**
 * Builds a large in-memory segment of stamped batches for the benchmark: one batch is
 * encoded with src/core/walk/encode.ts, then copied back to back; each copy gets its own
 * base_offset and base_timestamp and a recomputed batch checksum, so analyze() finds
 * 0 diagnostics (offsets continue across batches, timestamps move forward).
 */
import { BATCH_HEADER_SIZE, FRAME_HEADER_SIZE } from "../../src/format/fields.ts";
import { batchChecksumOf, encodeBatch, type MessageSpec } from "../../src/core/walk/encode.ts";
import type { Xxh3 } from "../../src/checksum/xxh3.ts";
import { closeSync, openSync, writeSync } from "node:fs";

/** Messages per batch when they fit: the batching default of Iggy's clients (1000 messages per send). */
export const DEFAULT_MESSAGES_PER_BATCH = 1000;
/** Upper bound on one batch's size, header included; large payloads get fewer messages per batch. */
export const DEFAULT_MAX_BATCH_BYTES = 1 << 20;

/** The shape of one benchmark segment. */
export interface SegmentPlan {
  readonly payloadSize: number;
  readonly frameBytes: number;
  readonly messagesPerBatch: number;
  readonly batchBytes: number;
  readonly batches: number;
  readonly frames: number;
  readonly totalBytes: number;
}

/**
 * As many whole batches as fit in targetBytes (at least one). A batch holds
 * maxMessages messages, or fewer so it stays within maxBatchBytes (at least one).
 */
export function planSegment(
  payloadSize: number,
  targetBytes: number,
  maxMessages = DEFAULT_MESSAGES_PER_BATCH,
  maxBatchBytes = DEFAULT_MAX_BATCH_BYTES,
): SegmentPlan {
  const frameBytes = FRAME_HEADER_SIZE + payloadSize;
  const messagesPerBatch = Math.max(1, Math.min(maxMessages, Math.floor((maxBatchBytes - BATCH_HEADER_SIZE) / frameBytes)));
  const batchBytes = BATCH_HEADER_SIZE + messagesPerBatch * frameBytes;
  const batches = Math.max(1, Math.floor(targetBytes / batchBytes));
  return { payloadSize, frameBytes, messagesPerBatch, batchBytes, batches, frames: batches * messagesPerBatch, totalBytes: batches * batchBytes };
}

/** A deterministic xorshift32 fill, so every run hashes the same bytes. */
function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const words = new Uint32Array(Math.ceil(length / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return new Uint8Array(words.buffer, 0, length);
}

/** Base timestamp of the first batch (µs): 2025-01-01T00:00:00Z. */
const T0 = 1_735_689_600_000_000n;
/** Server time between consecutive batches (µs). */
const BATCH_INTERVAL_US = 1_000n;

/** The producer messages of the template batch: random payloads, distinct ids, no user headers. */
function templateMessages(plan: SegmentPlan): MessageSpec[] {
  const pool = pseudoRandomBytes(plan.payloadSize + 65_536, 0x1995_2025);
  const span = pool.length - plan.payloadSize;
  const messages: MessageSpec[] = [];
  for (let k = 0; k < plan.messagesPerBatch; k++) {
    const at = (k * 7_919) % span;
    messages.push({
      payload: pool.subarray(at, at + plan.payloadSize),
      id: (0x0123_4567_89ab_cdefn << 64n) | BigInt(k + 1),
      // offsetDelta defaults to the index; timestamp_delta 0 on frame 0 keeps origin_timestamp the earliest.
      timestampDelta: k,
    });
  }
  return messages;
}

/** The segment bytes for a plan; the whole thing is one allocation of plan.totalBytes. */
export function buildSegment(xxh: Xxh3, plan: SegmentPlan): Uint8Array {
  const template = encodeBatch(xxh, {
    partitionId: 1n,
    baseOffset: 0n,
    baseTimestamp: T0,
    originTimestamp: T0 - 500n,
    messages: templateMessages(plan),
  });
  if (template.length !== plan.batchBytes) throw new Error(`template batch is ${template.length} bytes, planned ${plan.batchBytes}`);
  const segment = new Uint8Array(plan.totalBytes);
  const view = new DataView(segment.buffer);
  const n = BigInt(plan.messagesPerBatch);
  for (let b = 0; b < plan.batches; b++) {
    const pos = b * plan.batchBytes;
    segment.set(template, pos);
    view.setBigUint64(pos + 8, BigInt(b) * n, true);
    view.setBigUint64(pos + 16, T0 + BigInt(b) * BATCH_INTERVAL_US, true);
    view.setBigUint64(pos + 40, batchChecksumOf(xxh, segment.subarray(pos, pos + plan.batchBytes)), true);
  }
  return segment;
}

/** Absolute [start + 8, end) hash windows of every frame of a planned segment: what analyze() hashes per frame. */
export function frameWindows(plan: SegmentPlan): { starts: Float64Array; ends: Float64Array } {
  const starts = new Float64Array(plan.frames);
  const ends = new Float64Array(plan.frames);
  let i = 0;
  for (let b = 0; b < plan.batches; b++) {
    let f = b * plan.batchBytes + BATCH_HEADER_SIZE;
    for (let k = 0; k < plan.messagesPerBatch; k++, i++) {
      starts[i] = f + 8;
      f += plan.frameBytes;
      ends[i] = f;
    }
  }
  return { starts, ends };
}

/** Writes the segment of a plan to a file batch by batch (64 MiB at a time), so a 1 GiB segment never sits in memory. */
export function writeSegmentFile(xxh: Xxh3, plan: SegmentPlan, path: string): void {
  const one = buildSegment(xxh, { ...plan, batches: 1, frames: plan.messagesPerBatch, totalBytes: plan.batchBytes });
  const perChunk = Math.max(1, Math.floor((64 << 20) / plan.batchBytes));
  const chunk = new Uint8Array(perChunk * plan.batchBytes);
  const view = new DataView(chunk.buffer);
  const n = BigInt(plan.messagesPerBatch);
  const fd = openSync(path, "w");
  try {
    for (let b0 = 0; b0 < plan.batches; b0 += perChunk) {
      const count = Math.min(perChunk, plan.batches - b0);
      for (let i = 0; i < count; i++) {
        const b = b0 + i;
        const pos = i * plan.batchBytes;
        chunk.set(one, pos);
        view.setBigUint64(pos + 8, BigInt(b) * n, true);
        view.setBigUint64(pos + 16, T0 + BigInt(b) * BATCH_INTERVAL_US, true);
        view.setBigUint64(pos + 40, batchChecksumOf(xxh, chunk.subarray(pos, pos + plan.batchBytes)), true);
      }
      writeSync(fd, chunk, 0, count * plan.batchBytes);
    }
  } finally {
    closeSync(fd);
  }
}
