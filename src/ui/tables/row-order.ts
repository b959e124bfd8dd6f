/**
 * Row orders for tables over columnar data: a table's rows are ids (batch or frame indexes),
 * never row objects, so a segment with millions of frames costs one Uint32Array at most.
 * Sorting sorts those ids by a numeric key read from the typed-array columns.
 */

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

/** An explicit order of ids (after a sort or a filter). */
export function arrayOrder(ids: Uint32Array): RowOrder {
  return {
    length: ids.length,
    at: (position) => ids[position] as number,
    positionOf: (id) => ids.indexOf(id),
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
 * µs timestamps), then the exact bigint when two floats past it collide. Null sorts first.
 */
export function bigintSortKey(value: (id: number) => bigint | null): SortKey {
  return {
    primary: (id) => {
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
 * Keys are read once into a Float64Array and positions are sorted, so the comparator
 * touches only typed arrays except on ties of the primary key.
 */
export function sortIds(ids: Uint32Array, key: SortKey, desc: boolean): Uint32Array {
  const n = ids.length;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = key.primary(ids[k] as number);
  const positions = new Uint32Array(n);
  for (let k = 0; k < n; k++) positions[k] = k;
  const sign = desc ? -1 : 1;
  const tie = key.tie;
  const exactWhileSafe = key.exactWhileSafe === true;
  positions.sort((pa, pb) => {
    const ka = keys[pa] as number;
    let c = compareNumbers(ka, keys[pb] as number);
    // Equal bigints read as equal floats on every comparison of a column of one value (every batch 404 bytes long).
    if (c === 0 && tie && !(exactWhileSafe && Math.abs(ka) <= Number.MAX_SAFE_INTEGER)) c = tie(ids[pa] as number, ids[pb] as number);
    if (c !== 0) return sign * c;
    return (ids[pa] as number) - (ids[pb] as number);
  });
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) out[k] = ids[positions[k] as number] as number;
  return out;
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
