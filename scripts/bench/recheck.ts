/** The live-editing figure: what one edit costs on a 1 MiB batch (copy the bytes, change one, re-analyse). */
import { analyzeWith } from "../../src/core/walk/analyze.ts";
import { encodeBatch } from "../../src/core/walk/encode.ts";
import type { Xxh3 } from "../../src/checksum/xxh3.ts";

/** Median milliseconds of `runs` edit-and-recheck cycles on a ~1 MiB batch of `payloadSize`-byte messages. */
export function measureRecheck(xxh: Xxh3, payloadSize: number, runs = 21): { frames: number; bytes: number; medianMs: number; maxMs: number } {
  const count = Math.max(1, Math.floor((1 << 20) / (48 + payloadSize)) - 1);
  const payload = new Uint8Array(payloadSize).fill(0x61);
  const batch = encodeBatch(xxh, { originTimestamp: 1n, messages: Array.from({ length: count }, () => ({ payload })) });
  const times: number[] = [];
  let current = batch;
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    // What commitEdit does: a new copy with one byte changed, then the whole re-check.
    const edited = current.slice();
    edited[100] = i & 1;
    const a = analyzeWith(xxh, edited);
    const ms = performance.now() - t0;
    if (a.frames.count !== count) throw new Error(`re-check found ${a.frames.count} frames, expected ${count}`);
    current = edited;
    if (i >= 2) times.push(ms);
  }
  times.sort((x, y) => x - y);
  return { frames: count, bytes: batch.length, medianMs: times[times.length >> 1] as number, maxMs: times[times.length - 1] as number };
}
