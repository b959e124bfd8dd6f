/**
 * Byte layouts for the tests, computed in Node without the page: the samples' bytes come from the
 * same builders the samples menu uses, and a deliberately tiny walker (independent of src/core's
 * decoder) finds where batches and frames are, straight from batch-format.md:
 * batch = 256-byte header + frames; frame = 48-byte header + payload + user headers.
 */
import { SAMPLES } from "../src/core/samples/samples.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";

export interface FrameLayout {
  /** Frame index in the whole input (the Frames table's "all batches" order). */
  readonly index: number;
  readonly batch: number;
  readonly indexInBatch: number;
  readonly start: number;
  readonly end: number;
}

export interface BatchLayout {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly frames: readonly FrameLayout[];
}

/** The bytes of sample `id`, built as the page builds them. */
export async function sampleBytes(id: string): Promise<Uint8Array> {
  const sample = SAMPLES.find((s) => s.id === id);
  if (!sample) throw new Error(`no sample ${id}`);
  return sample.build(await loadXxh3());
}

/** Walks well-formed batches back to back (stops at anything that does not fit). */
export function walk(bytes: Uint8Array): BatchLayout[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const batches: BatchLayout[] = [];
  let frameIndex = 0;
  for (let pos = 0; pos + 256 <= bytes.length;) {
    const length = Number(view.getBigUint64(pos + 32, true));
    if (length < 256 || pos + length > bytes.length) break;
    const frames: FrameLayout[] = [];
    for (let f = pos + 256; f + 48 <= pos + length;) {
      const end = f + 48 + view.getUint32(f + 32, true) + view.getUint32(f + 36, true);
      if (end > pos + length) break;
      frames.push({ index: frameIndex++, batch: batches.length, indexInBatch: frames.length, start: f, end });
      f = end;
    }
    batches.push({ index: batches.length, start: pos, end: pos + length, frames });
    pos += length;
  }
  return batches;
}

/** The bytes a batch checksum covers: header 0..40 and 48..52, then each frame's 8 stored checksum bytes. */
export function batchChecksumCoverage(batch: BatchLayout): number[] {
  const out: number[] = [];
  for (let i = batch.start; i < batch.start + 40; i++) out.push(i);
  for (let i = batch.start + 48; i < batch.start + 52; i++) out.push(i);
  for (const f of batch.frames) for (let i = f.start; i < f.start + 8; i++) out.push(i);
  return out;
}
