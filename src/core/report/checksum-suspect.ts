/**
 * Which side of a checksum mismatch is suspect, worked out from the other checksum of the batch: the
 * batch checksum covers the stored frame checksums, a frame checksum covers the frame's bytes, so the
 * pair tells whether the bytes, the stored checksum or the header changed after hashing.
 */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { computeBatchChecksum } from "../../checksum/verify.ts";
import { FrameFlag, type Diagnostic } from "../../format/diagnostics.ts";
import { plural } from "../../format/values.ts";
import type { Analysis } from "../model/model.ts";

/** What the producer-hash check needs: the kernel and the analysed bytes (whole input). */
export interface SuspectBytes {
  readonly xxh3: Xxh3;
  readonly bytes: Uint8Array;
}

// Bytes 0..24 of the header are what the server stamps (partition_id, base_offset, base_timestamp).
const STAMPED_BYTES = 24;

/** Frames of batch `b` whose stored checksum differs from the computed one. */
function mismatchedFrames(analysis: Analysis, b: number): number {
  const first = analysis.batches.firstFrame(b);
  const count = analysis.batches.frameCount(b);
  let n = 0;
  for (let i = first; i < first + count; i++) if ((analysis.frames.flags[i] as number) & FrameFlag.checksumMismatch) n++;
  return n;
}

/** True when batch `b`'s stored checksum is the one its producer made: the hash with the stamped fields zeroed. */
function producerHashMatches(analysis: Analysis, b: number, stored: bigint, extra: SuspectBytes): boolean {
  const start = analysis.batches.start(b);
  const end = analysis.batches.end(b);
  if (end > extra.bytes.length) return false;
  const copy = extra.bytes.slice(start, end);
  copy.fill(0, 0, STAMPED_BYTES);
  const first = analysis.batches.firstFrame(b);
  const count = analysis.batches.frameCount(b);
  const starts = new Float64Array(count);
  for (let k = 0; k < count; k++) starts[k] = (analysis.frames.start[first + k] as number) - start;
  return computeBatchChecksum(extra.xxh3, copy, 0, starts, 0, count) === stored;
}

/**
 * One sentence saying which side of a checksum mismatch is suspect, or null for any other finding (or a
 * batch too damaged to tell). With the bytes and the kernel it also recognises a batch stamped without re-hashing.
 */
export function checksumSuspect(analysis: Analysis, d: Diagnostic, extra?: SuspectBytes): string | null {
  if (d.batch === null || (d.code !== "frame-checksum-mismatch" && d.code !== "batch-checksum-mismatch")) return null;
  const b = analysis.batches.at(d.batch);
  if (!b?.header || b.computedChecksum === null) return null;
  const batchOk = b.computedChecksum === b.header.batchChecksum;
  if (d.code === "frame-checksum-mismatch") {
    return batchOk
      ? "The batch checksum still matches the stored frame checksums, so the stored checksum is the producer's: the frame's bytes (header fields 8..48, payload or user headers) changed after the producer hashed them."
      : "The batch checksum fails too, and it covers the stored frame checksums: the stored checksum (frame bytes 0..8) itself may have changed, or the frame was rewritten without re-making both checksums.";
  }
  const bad = mismatchedFrames(analysis, d.batch);
  if (bad > 0)
    return `${plural(bad, "frame checksum")} of this batch also ${bad === 1 ? "fails" : "fail"}: look at ${bad === 1 ? "that frame" : "those frames"} first; a stored frame checksum that changed breaks the batch checksum too.`;
  if (b.stamped && extra && producerHashMatches(analysis, d.batch, b.header.batchChecksum, extra))
    return "Every frame verifies, and the stored batch_checksum is the producer's (the hash with partition_id, base_offset and base_timestamp zeroed): the batch was stamped without re-computing batch_checksum.";
  return "Every frame verifies, so the payloads are intact: a header field the batch checksum covers (partition_id, base_offset, base_timestamp, origin_timestamp, batch_length, message_count) or batch_checksum itself changed after hashing.";
}
