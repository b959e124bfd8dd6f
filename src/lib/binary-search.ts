/** The one binary search: the first index in [lo, hi) where a monotone predicate turns false. */

/**
 * Returns the first i in [lo, hi) with isBefore(i) false, or hi; isBefore must be true for a
 * prefix of the range and false after it (e.g. "starts[i] <= offset" over sorted starts).
 */
export function partitionPoint(lo: number, hi: number, isBefore: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isBefore(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in sorted numbers[lo..hi) whose value is greater than `value`. */
export function upperBound(numbers: ArrayLike<number>, value: number, lo = 0, hi = numbers.length): number {
  return partitionPoint(lo, hi, (i) => (numbers[i] as number) <= value);
}

/** First index in sorted numbers[lo..hi) whose value is at least `value`. */
export function lowerBound(numbers: ArrayLike<number>, value: number, lo = 0, hi = numbers.length): number {
  return partitionPoint(lo, hi, (i) => (numbers[i] as number) < value);
}
