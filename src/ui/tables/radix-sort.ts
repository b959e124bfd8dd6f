/**
 * A stable LSD radix sort of positions by float64 keys: 16-bit digits of the keys' bits, made to order
 * as the numbers do (two digits where every key is an integer below 2^32, four otherwise), each pass
 * skipped where every key has the same digit, and the keys moved with their positions so every pass
 * reads in order. Sorting 2.6 million batches so is a few passes over typed arrays, where a comparator
 * sort makes some 55 million calls.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const DIGITS = 1 << 16;

/** Whether radixPositions can run here: it reads a float64's words in little-endian order. */
export const RADIX_SORT_AVAILABLE = LITTLE_ENDIAN;

/**
 * The positions 0..n−1 of `keys` in ascending key order (descending when `desc`), equal keys in
 * ascending position either way; −0 counts as 0. Keys must not be NaN.
 */
export function radixPositions(keys: Float64Array, desc: boolean): Uint32Array {
  const n = keys.length;
  let order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  if (n < 2) return order;
  const flip = desc ? 0xffffffff : 0;
  let low = new Uint32Array(n);
  let high: Uint32Array<ArrayBuffer> | null = null;
  let small = true;
  for (let k = 0; k < n && small; k++) {
    const v = keys[k] as number;
    if (v >>> 0 !== v) small = false;
    else low[k] = (v ^ flip) >>> 0;
  }
  if (!small) {
    high = new Uint32Array(n);
    const words = new Uint32Array(keys.buffer, keys.byteOffset, 2 * n);
    for (let k = 0; k < n; k++) {
      let h = words[2 * k + 1] as number;
      let l = words[2 * k] as number;
      if (keys[k] === 0) h = l = 0; // −0 and 0 alike
      // IEEE order as unsigned order: negatives have every bit flipped, the others only the sign bit.
      if (h & 0x80000000) {
        h = ~h;
        l = ~l;
      } else h |= 0x80000000;
      low[k] = (l ^ flip) >>> 0;
      high[k] = (h ^ flip) >>> 0;
    }
  }
  let spareOrder = new Uint32Array(n);
  let spareLow = new Uint32Array(n);
  let spareHigh: Uint32Array<ArrayBuffer> | null = high ? new Uint32Array(n) : null;
  const counts = new Uint32Array(DIGITS);
  for (let pass = 0; pass < (high ? 4 : 2); pass++) {
    const source = pass < 2 ? low : (high as Uint32Array);
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[((source[k] as number) >>> shift) & 0xffff]!++;
    if (counts[((source[0] as number) >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < DIGITS; d++) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const to = counts[((source[k] as number) >>> shift) & 0xffff]!++;
      spareOrder[to] = order[k] as number;
      spareLow[to] = low[k] as number;
      if (high && spareHigh) spareHigh[to] = high[k] as number;
    }
    [order, spareOrder] = [spareOrder, order];
    [low, spareLow] = [spareLow, low];
    if (high && spareHigh) [high, spareHigh] = [spareHigh, high];
  }
  return order;
}
