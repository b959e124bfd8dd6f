/**
 * Row orders for tables over columnar data: a table's rows are ids (batch or frame indexes),
 * never row objects, so a segment with millions of frames costs one Uint32Array at most.
 * Sorting sorts those ids by a numeric key read from the typed-array columns.
 */
import { RADIX_SORT_AVAILABLE, radixPositions } from "./radix-sort.ts";

/** Row ids in display order; `at` and `positionOf` are cheap for an identity range. */
export interface RowOrder {
  readonly length: number;
  /** The id shown at display position `position`. */
  at(position: number): number;
  /** The display position of `id`, or -1 when the order does not hold it. */
  positionOf(id: number): number;
}

/** The ids first .. first+count−1 in ascending order, without allocating them. */
export function rangeOrder(first: number, count: number): RowOrder {
  return {
    length: count,
    at: (position) => first + position,
    positionOf: (id) => (id >= first && id < first + count ? id - first : -1),
  };
}

/** An explicit order of ids (after a sort or a filter); positionOf builds an inverse map on its first call. */
export function arrayOrder(ids: Uint32Array): RowOrder {
  let inverse: Int32Array | null = null;
  return {
    length: ids.length,
    at: (position) => ids[position] as number,
    positionOf: (id) => {
      // A table follows the view on every scroll step: a scan of millions of ids each time would be a long task.
      if (!inverse) {
        let max = -1;
        for (let k = 0; k < ids.length; k++) if ((ids[k] as number) > max) max = ids[k] as number;
        inverse = new Int32Array(max + 1).fill(-1);
        for (let k = 0; k < ids.length; k++) inverse[ids[k] as number] = k;
      }
      return id >= 0 && id < inverse.length ? (inverse[id] as number) : -1;
    },
  };
}

/** An order with no rows. */
export const EMPTY_ORDER: RowOrder = rangeOrder(0, 0);

/**
 * How one column sorts: a numeric primary key per id and, for values a float64 cannot
 * tell apart (u64 and u128 values past 2^53, byte strings), an exact tie-break.
 */
export interface SortKey {
  // Function-typed members, not methods: sortIds reads them unbound.
  readonly primary: (id: number) => number;
  readonly tie?: (a: number, b: number) => number;
  /** The primary key is exact while within ±2^53 (a bigint's float value): ties there are real, tie is not asked. */
  readonly exactWhileSafe?: boolean;
}

/**
 * A bigint sort key: its float value first (exact below 2^53, which covers real offsets, lengths and
 * µs timestamps), then the exact bigint when two floats past it collide. Null sorts first. `float`, where
 * given, is that float read without making the bigint (BatchTable.headerFloat).
 */
export function bigintSortKey(value: (id: number) => bigint | null, float?: (id: number) => number | null): SortKey {
  return {
    primary: (id) => {
      if (float) return float(id) ?? -Infinity;
      const v = value(id);
      return v === null ? -Infinity : Number(v);
    },
    tie: (a, b) => {
      const va = value(a);
      const vb = value(b);
      if (va === null || vb === null) return va === vb ? 0 : va === null ? -1 : 1;
      return compareBigints(va, vb);
    },
    exactWhileSafe: true,
  };
}

/** The ids in first .. first+count−1 that `keep` accepts, ascending. */
export function filterIds(first: number, count: number, keep: (id: number) => boolean): Uint32Array {
  const out = new Uint32Array(count);
  let n = 0;
  for (let id = first; id < first + count; id++) if (keep(id)) out[n++] = id;
  return out.slice(0, n);
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A new array of `ids` sorted by `key` (descending when `desc`); equal keys keep
 * ascending id order in both directions, so the result is deterministic.
 * Keys are read once into a Float64Array; where they decide every comparison (no tie-break,
 * or a bigint column within ±2^53) the positions are radix-sorted (radix-sort.ts), else
 * sorted by a comparator that reads the exact values on ties.
 */
export function sortIds(unordered: Uint32Array, key: SortKey, desc: boolean): Uint32Array {
  // Ascending ids first: both sorts below keep that order among equal keys.
  const ids = isAscending(unordered) ? unordered : unordered.slice().sort();
  const n = ids.length;
  const keys = new Float64Array(n);
  let exact = true;
  const exactWhileSafe = key.exactWhileSafe === true;
  for (let k = 0; k < n; k++) {
    const v = key.primary(ids[k] as number);
    keys[k] = v;
    // −Infinity is a missing value: bigintSortKey's tie-break finds two of them equal.
    if (exact && key.tie && !(exactWhileSafe && (Math.abs(v) <= Number.MAX_SAFE_INTEGER || v === -Infinity))) exact = false;
  }
  const positions = exact && RADIX_SORT_AVAILABLE ? radixPositions(keys, desc) : comparatorPositions(ids, keys, key, desc);
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) out[k] = ids[positions[k] as number] as number;
  return out;
}

function comparatorPositions(ids: Uint32Array, keys: Float64Array, key: SortKey, desc: boolean): Uint32Array {
  const positions = new Uint32Array(ids.length);
  for (let k = 0; k < positions.length; k++) positions[k] = k;
  const sign = desc ? -1 : 1;
  const tie = key.tie;
  const exactWhileSafe = key.exactWhileSafe === true;
  positions.sort((pa, pb) => {
    const ka = keys[pa] as number;
    let c = compareNumbers(ka, keys[pb] as number);
    // Equal bigints read as equal floats on every comparison of a column of one value (every batch 404 bytes long).
    if (c === 0 && tie && !(exactWhileSafe && Math.abs(ka) <= Number.MAX_SAFE_INTEGER)) c = tie(ids[pa] as number, ids[pb] as number);
    if (c !== 0) return sign * c;
    return pa - pb;
  });
  return positions;
}

function isAscending(ids: Uint32Array): boolean {
  for (let k = 1; k < ids.length; k++) if ((ids[k] as number) < (ids[k - 1] as number)) return false;
  return true;
}

/** The display order of the ids first .. first+count−1: filtered by `keep` (if any), then sorted by `key` (if any). */
export function buildOrder(first: number, count: number, keep: ((id: number) => boolean) | null, sort: { key: SortKey; desc: boolean } | null): RowOrder {
  if (!keep && !sort) return rangeOrder(first, count);
  let ids: Uint32Array;
  if (keep) ids = filterIds(first, count, keep);
  else {
    ids = new Uint32Array(count);
    for (let k = 0; k < count; k++) ids[k] = first + k;
  }
  return arrayOrder(sort ? sortIds(ids, sort.key, sort.desc) : ids);
}

/** Compares two bigints, for exact tie-breaks. */
export function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Where keyboard navigation moves the active row, or null for a key it does not handle. */
export function nextActivePosition(key: string, active: number, count: number, pageRows: number): number | null {
  if (count === 0) return null;
  const clamp = (p: number): number => Math.max(0, Math.min(count - 1, p));
  switch (key) {
    case "ArrowDown":
      return clamp(active + 1);
    case "ArrowUp":
      return clamp(active - 1);
    case "PageDown":
      return clamp(active + Math.max(1, pageRows));
    case "PageUp":
      return clamp(active - Math.max(1, pageRows));
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
