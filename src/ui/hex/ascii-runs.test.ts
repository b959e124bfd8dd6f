import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { asciiRuns, charAt } from "./ascii-runs.ts";

describe("asciiRuns", () => {
  test("groups neighbours of equal class, and a marked byte stands alone", () => {
    expect(asciiRuns(["a", "a", "a edge", "a", "a", "b"])).toEqual([
      { from: 0, to: 2, cls: "a" },
      { from: 2, to: 3, cls: "a edge" },
      { from: 3, to: 5, cls: "a" },
      { from: 5, to: 6, cls: "b" },
    ]);
    expect(asciiRuns([])).toEqual([]);
  });

  test("the runs cover every byte once, in order, each of one class, no two neighbours alike", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("x", "y", "z"), { maxLength: 16 }), (classes) => {
        const runs = asciiRuns(classes);
        let at = 0;
        runs.forEach((r, k) => {
          expect(r.from).toBe(at);
          expect(r.to).toBeGreaterThan(r.from);
          for (let i = r.from; i < r.to; i++) expect(classes[i]).toBe(r.cls);
          if (k > 0) expect(runs[k - 1]!.cls).not.toBe(r.cls);
          at = r.to;
        });
        expect(at).toBe(classes.length);
      }),
    );
  });
});

describe("charAt", () => {
  test("finds the character under a point, clamped to the box", () => {
    // Four characters of 8 px from x = 100.
    expect(charAt(100, 100, 32, 4)).toBe(0);
    expect(charAt(107.9, 100, 32, 4)).toBe(0);
    expect(charAt(108, 100, 32, 4)).toBe(1);
    expect(charAt(131.9, 100, 32, 4)).toBe(3);
    expect(charAt(140, 100, 32, 4)).toBe(3);
    expect(charAt(90, 100, 32, 4)).toBe(0);
    expect(charAt(500, 100, 32, 1)).toBe(0);
    expect(charAt(120, 100, 0, 4)).toBe(0);
  });
});
