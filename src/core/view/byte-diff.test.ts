/** byteDiff against a position-by-position reference, and its sentence. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { byteDiff, byteDiffText } from "./byte-diff.ts";

describe("byteDiff", () => {
  it("finds runs whose bytes are exactly the differing positions", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 60 }).map((a) => a.map((b) => b % 2)),
        fc.uint8Array({ maxLength: 60 }).map((a) => a.map((b) => b % 2)),
        (a, b) => {
          const d = byteDiff(a, b, 1000);
          const expected: number[] = [];
          for (let i = 0; i < Math.max(a.length, b.length); i++) if (i >= a.length || i >= b.length || a[i] !== b[i]) expected.push(i);
          const fromRuns = d.runs.flatMap((r) => Array.from({ length: r.end - r.start }, (_, k) => r.start + k));
          expect(fromRuns).toEqual(expected);
          expect(d.differing).toBe(expected.length);
          expect(d.firstDifference).toBe(expected[0] ?? -1);
          for (let k = 1; k < d.runs.length; k++) expect(d.runs[k]!.start).toBeGreaterThanOrEqual(d.runs[k - 1]!.end);
        },
      ),
    );
  });

  it("keeps at most maxRuns but counts every differing byte", () => {
    const a = new Uint8Array(20);
    const b = Uint8Array.from({ length: 20 }, (_, i) => (i % 2 ? 1 : 0));
    const d = byteDiff(a, b, 3);
    expect(d.runs).toEqual([
      { start: 1, end: 2 },
      { start: 3, end: 4 },
      { start: 5, end: 6 },
    ]);
    expect(d.truncated).toBe(true);
    expect(d.differing).toBe(10);
  });

  it("says where two payloads differ, not only their lengths", () => {
    const a = new TextEncoder().encode("hello world");
    const b = new TextEncoder().encode("hello_world!");
    expect(byteDiffText(byteDiff(a, a))).toBe("same 11 bytes");
    expect(byteDiffText(byteDiff(a, b))).toBe("differ from byte 5: 2 bytes in 2 runs (11 vs 12 bytes)");
  });
});
