/**
 * Per-row bit masks: bit i stands for byte rowStart + i of a 16-byte row. A row's hover, selection
 * and checksum coverage reduce to one number each, which a store selector can compare cheaply.
 */
import { partitionPoint } from "../../lib/binary-search.ts";
import type { ByteSpan } from "../state/app-state.ts";

/** Bits of the bytes of the row [rowStart, rowStart + length) that lie inside [start, end). */
export function spanMask(start: number, end: number, rowStart: number, length: number): number {
  const lo = Math.max(start, rowStart) - rowStart;
  const hi = Math.min(end, rowStart + length) - rowStart;
  if (hi <= lo) return 0;
  return ((1 << hi) - 1) & ~((1 << lo) - 1);
}

/** Bits of the row's bytes covered by any of `spans`, sorted by start and disjoint: one binary search, then the hits. */
export function spansMask(spans: readonly ByteSpan[], rowStart: number, length: number): number {
  // First span that ends after the row starts.
  const lo = partitionPoint(0, spans.length, (i) => (spans[i] as ByteSpan).end <= rowStart);
  let mask = 0;
  const rowEnd = rowStart + length;
  for (let i = lo; i < spans.length; i++) {
    const s = spans[i] as ByteSpan;
    if (s.start >= rowEnd) break;
    mask |= spanMask(s.start, s.end, rowStart, length);
  }
  return mask;
}
