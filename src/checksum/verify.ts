/** The two checksums of the batch layout, computed through the batched Xxh3 interface. */
import type { Xxh3 } from "./xxh3.ts";

/** Length of the header part of the batch checksum input: five u64 fields and message_count. */
export const BATCH_CHECKSUM_HEADER_BYTES = 44;

/**
 * Computes every frame checksum of frames [from, to): XXH3-64 of frame bytes 8..end,
 * for frames given by absolute starts and ends in the input.
 */
export function computeFrameChecksums(xxh: Xxh3, input: Uint8Array, frameStarts: Float64Array, frameEnds: Float64Array, from: number, to: number, out: BigUint64Array): void {
  const windowStarts = new Float64Array(to - from);
  for (let i = from; i < to; i++) windowStarts[i - from] = (frameStarts[i] as number) + 8;
  // hashWindows indexes starts/ends/out alike, so feed it views aligned at `from`.
  xxh.hashWindows(input, windowStarts, frameEnds.subarray(from, to), 0, to - from, out.subarray(from, to));
}

/**
 * Computes the batch checksum: XXH3-64 over partition_id, base_offset, base_timestamp,
 * origin_timestamp, batch_length, message_count (44 header bytes), then each walked
 * frame's stored 8 checksum bytes in order.
 */
export function computeBatchChecksum(xxh: Xxh3, input: Uint8Array, batchStart: number, frameStarts: ArrayLike<number>, from: number, to: number): bigint {
  const buf = new Uint8Array(BATCH_CHECKSUM_HEADER_BYTES + 8 * (to - from));
  buf.set(input.subarray(batchStart, batchStart + 40), 0);
  buf.set(input.subarray(batchStart + 48, batchStart + 52), 40);
  // A plain copy loop: a subarray per frame cost twice as much on batches of small messages.
  for (let i = from, at = BATCH_CHECKSUM_HEADER_BYTES; i < to; i++, at += 8) {
    const s = frameStarts[i] as number;
    for (let k = 0; k < 8; k++) buf[at + k] = input[s + k] as number;
  }
  return xxh.hash(buf);
}
