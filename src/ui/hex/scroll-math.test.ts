import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  isRowVisible,
  maxTopRow,
  MAX_SCROLL_HEIGHT,
  revealTopRow,
  rowSlots,
  rowWindow,
  scrollGeometry,
  scrollTopFor,
  topRowAt,
  wheelRows,
} from "./scroll-math.ts";

const ROW = 20;

describe("scrollGeometry", () => {
  test("keeps the natural height below the cap", () => {
    expect(scrollGeometry(100, ROW)).toEqual({ rows: 100, rowHeight: ROW, contentHeight: 2000, scaled: false });
    expect(scrollGeometry(0, ROW)).toMatchObject({ contentHeight: 0, scaled: false });
    expect(scrollGeometry(MAX_SCROLL_HEIGHT / ROW, ROW).scaled).toBe(false);
  });

  test("caps and scales past it: 256 MiB is 16M rows", () => {
    const g = scrollGeometry((256 * 1024 * 1024) / 16, ROW);
    expect(g.rows).toBe(16_777_216);
    expect(g.contentHeight).toBe(MAX_SCROLL_HEIGHT);
    expect(g.scaled).toBe(true);
  });
});

describe("natural mode is the identity", () => {
  const g = scrollGeometry(1000, ROW);
  const vh = 400;

  test("topRowAt and scrollTopFor are inverse and exact", () => {
    expect(topRowAt(g, 0, vh)).toBe(0);
    expect(topRowAt(g, 200, vh)).toBe(10);
    expect(scrollTopFor(g, 10, vh)).toBe(200);
    expect(scrollTopFor(g, 12.5, vh)).toBe(250);
  });

  test("the last row ends at the bottom of the viewport", () => {
    expect(maxTopRow(g, vh)).toBe(980);
    expect(topRowAt(g, 1e9, vh)).toBe(980);
    expect(scrollTopFor(g, 5000, vh)).toBe(19_600);
    expect(scrollTopFor(g, -3, vh)).toBe(0);
  });
});

describe("scaled mode", () => {
  const rows = 16_777_216;
  const g = scrollGeometry(rows, ROW);
  const vh = 600;
  const maxScroll = g.contentHeight - vh;

  test("maps the ends of the scroll range onto the first and last rows", () => {
    expect(topRowAt(g, 0, vh)).toBe(0);
    expect(topRowAt(g, maxScroll, vh)).toBe(rows - vh / ROW);
    expect(topRowAt(g, maxScroll + 50, vh)).toBe(rows - vh / ROW);
  });

  test("round-trips within the resolution of one pixel", () => {
    const rowsPerPixel = maxTopRow(g, vh) / maxScroll;
    expect(rowsPerPixel).toBeGreaterThan(2);
    expect(rowsPerPixel).toBeLessThan(2.2);
    for (const row of [0, 1, 12_345, 8_000_000, rows - 30]) {
      const top = scrollTopFor(g, row, vh);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThanOrEqual(maxScroll);
      expect(topRowAt(g, top, vh)).toBeCloseTo(row, 6);
      expect(Math.abs(topRowAt(g, Math.round(top), vh) - row)).toBeLessThanOrEqual(rowsPerPixel);
    }
  });

  test("a tiny viewport taller than the content does not divide by zero", () => {
    const small = scrollGeometry(10, ROW, 100);
    expect(small.scaled).toBe(true);
    expect(topRowAt(small, 50, 500)).toBe(0);
    expect(scrollTopFor(small, 5, 500)).toBe(0);
  });
});

describe("rowWindow", () => {
  test("covers the viewport plus overscan, clamped to the rows", () => {
    const g = scrollGeometry(1000, ROW);
    expect(rowWindow(g, 0, 400, 5)).toEqual({ first: 0, end: 25 });
    expect(rowWindow(g, 100.5, 400, 5)).toEqual({ first: 95, end: 126 });
    expect(rowWindow(g, 980, 400, 5)).toEqual({ first: 975, end: 1000 });
  });

  test("is empty for no rows and never empty otherwise", () => {
    expect(rowWindow(scrollGeometry(0, ROW), 0, 400, 5)).toEqual({ first: 0, end: 0 });
    expect(rowWindow(scrollGeometry(1, ROW), 0, 0, 0)).toEqual({ first: 0, end: 1 });
  });

  test("stays small for a huge input", () => {
    const g = scrollGeometry(16_777_216, ROW);
    const w = rowWindow(g, 16_000_000.25, 600, 8);
    expect(w).toEqual({ first: 15_999_992, end: 16_000_039 });
  });
});

describe("revealTopRow", () => {
  const g = scrollGeometry(1000, ROW);
  const vh = 200; // 10 rows

  test("leaves a visible row alone", () => {
    expect(isRowVisible(g, 50, 50, vh)).toBe(true);
    expect(isRowVisible(g, 50, 59, vh)).toBe(true);
    expect(isRowVisible(g, 50, 60, vh)).toBe(false);
    expect(revealTopRow(g, 50, 55, vh, "nearest")).toBe(50);
    expect(revealTopRow(g, 50, 55, vh, "center")).toBe(50);
  });

  test("nearest scrolls just enough", () => {
    expect(revealTopRow(g, 50, 60, vh, "nearest")).toBe(51);
    expect(revealTopRow(g, 50, 49, vh, "nearest")).toBe(49);
    expect(revealTopRow(g, 50.5, 50, vh, "nearest")).toBe(50);
  });

  test("center puts the row in the middle, clamped at the ends", () => {
    expect(revealTopRow(g, 0, 500, vh, "center")).toBe(495.5);
    expect(revealTopRow(g, 500, 2, vh, "center")).toBe(0);
    expect(revealTopRow(g, 0, 999, vh, "center")).toBe(990);
  });
});

describe("wheelRows", () => {
  test("converts pixel, line and page deltas to rows", () => {
    expect(wheelRows(100, 0, ROW, 400)).toBe(5);
    expect(wheelRows(-3, 1, ROW, 400)).toBe(-3);
    expect(wheelRows(1, 2, ROW, 400)).toBe(19);
  });
});

describe("rowSlots", () => {
  test("every rendered window's rows get distinct keys row % slots", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 8 }),
        (vh, a, b, overscan) => {
          const g = scrollGeometry(1_000_000_000, ROW);
          const slots = rowSlots(vh, ROW, overscan);
          const windows = [a, b].map((f) => rowWindow(g, f * maxTopRow(g, vh), vh, overscan));
          for (const w of windows) {
            const keys = new Set<number>();
            for (let r = w.first; r < w.end; r++) keys.add(r % slots);
            expect(keys.size).toBe(w.end - w.first);
          }
        },
      ),
    );
  });

  test("leaves room for the virtualizer's window, which also counts the header row and one row cut at each edge", () => {
    // TanStack Virtual renders the rows meeting [scrollTop, scrollTop + clientHeight) plus overscan each side;
    // clientHeight is the rows' viewport plus the sticky header.
    for (const vh of [0, 1, 19, 20, 21, 399, 400, 401, 1080]) {
      const touched = Math.ceil((vh + ROW) / ROW) + 1;
      expect(rowSlots(vh, ROW, 8)).toBeGreaterThanOrEqual(touched + 2 * 8);
    }
  });
});
