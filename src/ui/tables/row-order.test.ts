import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bigintSortKey, arrayOrder, buildOrder, filterIds, nextActivePosition, rangeOrder, sortIds } from "./row-order.ts";

const list = (o: { length: number; at(p: number): number }): number[] => Array.from({ length: o.length }, (_, k) => o.at(k));

describe("row orders", () => {
  it("a range order maps positions to ids and back without allocating", () => {
    const o = rangeOrder(10, 3);
    expect(list(o)).toEqual([10, 11, 12]);
    expect(o.positionOf(11)).toBe(1);
    expect(o.positionOf(9)).toBe(-1);
    expect(o.positionOf(13)).toBe(-1);
  });

  it("an array order finds positions", () => {
    const o = arrayOrder(Uint32Array.of(5, 2, 9));
    expect(o.positionOf(9)).toBe(2);
    expect(o.positionOf(4)).toBe(-1);
  });

  it("filters a range of ids", () => {
    expect(Array.from(filterIds(3, 6, (id) => id % 2 === 0))).toEqual([4, 6, 8]);
  });

  it("sorts ids by key, ties by ascending id in both directions", () => {
    const key = [3, 1, 2, 1, 3];
    const ids = Uint32Array.of(0, 1, 2, 3, 4);
    expect(Array.from(sortIds(ids, { primary: (i) => key[i]! }, false))).toEqual([1, 3, 2, 0, 4]);
    expect(Array.from(sortIds(ids, { primary: (i) => key[i]! }, true))).toEqual([0, 4, 2, 1, 3]);
  });

  it("breaks ties of the primary key with the exact comparison", () => {
    // Two bigints a float64 cannot tell apart.
    const values = [2n ** 60n + 1n, 2n ** 60n, 5n];
    const key = { primary: (i: number) => Number(values[i]!), tie: (a: number, b: number) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0) };
    expect(Array.from(sortIds(Uint32Array.of(0, 1, 2), key, false))).toEqual([2, 1, 0]);
    expect(Array.from(sortIds(Uint32Array.of(0, 1, 2), key, true))).toEqual([0, 1, 2]);
  });

  it("sorts bigints exactly past 2^53, nulls first, and asks no tie-break for equal values below it", () => {
    const values: (bigint | null)[] = [2n ** 60n + 3n, 404n, null, 2n ** 60n + 1n, 404n, 2n ** 60n + 2n, 7n];
    let asked = 0;
    const key = bigintSortKey((id) => {
      asked++;
      return values[id] as bigint | null;
    });
    const ids = Uint32Array.from(values.keys());
    expect([...sortIds(ids, key, false)]).toEqual([2, 6, 1, 4, 3, 5, 0]);
    expect([...sortIds(ids, key, true)]).toEqual([0, 5, 3, 1, 4, 6, 2]);
    // A column of one value (every batch the same length): the floats decide, no bigint is read again.
    const same = bigintSortKey(() => {
      asked++;
      return 404n;
    });
    asked = 0;
    expect([...sortIds(new Uint32Array([3, 1, 2, 0]), same, false)]).toEqual([0, 1, 2, 3]);
    expect(asked, "values read: once each for the keys").toBe(4);
  });

  it("sorts -Infinity (missing values) first ascending", () => {
    const key = [5, -Infinity, 1];
    expect(Array.from(sortIds(Uint32Array.of(0, 1, 2), { primary: (i) => key[i]! }, false))).toEqual([1, 2, 0]);
  });

  it("builds an order: identity without filter or sort, else filtered then sorted", () => {
    expect(list(buildOrder(4, 3, null, null))).toEqual([4, 5, 6]);
    const o = buildOrder(0, 6, (id) => id !== 2, { key: { primary: (id) => -id }, desc: false });
    expect(list(o)).toEqual([5, 4, 3, 1, 0]);
  });

  it("sorts a million ids in reasonable time", () => {
    const n = 1_000_000;
    const o = buildOrder(0, n, null, { key: { primary: (id) => (id * 7919) % 1000 }, desc: true });
    expect(o.length).toBe(n);
    expect(o.at(0)).toBeLessThan(n);
  });
});

describe("keyboard moves", () => {
  it("moves by one, by a page, and to the ends, clamped", () => {
    expect(nextActivePosition("ArrowDown", 0, 10, 4)).toBe(1);
    expect(nextActivePosition("ArrowUp", 0, 10, 4)).toBe(0);
    expect(nextActivePosition("ArrowDown", 9, 10, 4)).toBe(9);
    expect(nextActivePosition("PageDown", 3, 10, 4)).toBe(7);
    expect(nextActivePosition("PageDown", 8, 10, 4)).toBe(9);
    expect(nextActivePosition("PageUp", 2, 10, 4)).toBe(0);
    expect(nextActivePosition("PageDown", 2, 10, 0)).toBe(3);
    expect(nextActivePosition("Home", 5, 10, 4)).toBe(0);
    expect(nextActivePosition("End", 5, 10, 4)).toBe(9);
  });

  it("ignores other keys and empty tables", () => {
    expect(nextActivePosition("a", 0, 10, 4)).toBeNull();
    expect(nextActivePosition("ArrowDown", 0, 0, 4)).toBeNull();
  });
});

describe("sorting many rows", () => {
  // The comparator sort the radix sort stands in for: key order, then ascending id.
  const reference = (ids: readonly number[], key: (id: number) => number, desc: boolean): number[] =>
    [...ids].sort((a, b) => {
      const ka = key(a) === 0 ? 0 : key(a);
      const kb = key(b) === 0 ? 0 : key(b);
      return ka === kb ? a - b : (ka < kb ? -1 : 1) * (desc ? -1 : 1);
    });

  it("sorts every kind of float key as a comparator would, both ways", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 5 }),
            fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
            fc.double({ noNaN: true }),
            fc.constantFrom(-Infinity, Infinity, -0, 0, 2 ** 52, 2 ** 53, -(2 ** 53), 1.5e15),
          ),
          { maxLength: 300 },
        ),
        fc.boolean(),
        fc.boolean(),
        (values, desc, shuffled) => {
          const ids = values.map((_, i) => i);
          const given = shuffled ? [...ids].reverse() : ids;
          const key = (id: number) => values[id] as number;
          expect([...sortIds(Uint32Array.from(given), { primary: key }, desc)]).toEqual(reference(ids, key, desc));
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it("sorts 100,000 ids of a column of few values, and finds any id's position", () => {
    const n = 100_000;
    const ids = Uint32Array.from({ length: n }, (_, i) => i);
    const key = (id: number) => (id * 7919) % 13;
    const sorted = sortIds(ids, { primary: key }, true);
    expect([...sorted]).toEqual(reference([...ids], key, true));
    const order = arrayOrder(sorted);
    for (const id of [0, 1, 4242, n - 1]) expect(order.at(order.positionOf(id))).toBe(id);
    expect(order.positionOf(n)).toBe(-1);
  });
});
