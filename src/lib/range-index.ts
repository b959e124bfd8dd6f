/** Half-open ranges sorted by start, queried by binary search; finds every range overlapping a window. */
import { partitionPoint } from "./binary-search.ts";

/** A half-open byte range [start, end). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** Index of the first element whose start is ≥ value, in an array sorted by start. */
export function lowerBoundByStart(items: readonly ByteRange[], value: number): number {
  return partitionPoint(0, items.length, (i) => (items[i] as ByteRange).start < value);
}

/** An immutable index over ranges sorted by start; overlapping() costs one binary search plus the hits. */
export class RangeIndex<T extends ByteRange> {
  readonly items: readonly T[];
  // prefixMaxEnd[i] = max end of items[0..i]: lets a query stop scanning left as soon as nothing earlier can reach the window.
  private readonly prefixMaxEnd: Float64Array;

  constructor(sortedByStart: readonly T[]) {
    this.items = sortedByStart;
    this.prefixMaxEnd = new Float64Array(sortedByStart.length);
    let max = -Infinity;
    sortedByStart.forEach((r, i) => {
      max = Math.max(max, r.end);
      this.prefixMaxEnd[i] = max;
    });
  }

  /** Every range overlapping [start, end), plus empty ranges at start, in ascending order of start. */
  overlapping(start: number, end: number): T[] {
    const hits: T[] = [];
    for (let i = lowerBoundByStart(this.items, end) - 1; i >= 0 && (this.prefixMaxEnd[i] as number) > start; i--) {
      const r = this.items[i] as T;
      if (r.end > start) hits.push(r);
    }
    return hits.reverse();
  }

  /** True when some range covers the byte at offset. */
  covers(offset: number): boolean {
    return this.overlapping(offset, offset + 1).length > 0;
  }
}
