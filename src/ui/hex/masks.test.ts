import { describe, expect, test } from "vitest";
import { spanMask, spansMask } from "./masks.ts";

describe("spanMask", () => {
  test("sets one bit per byte of the row inside the span", () => {
    expect(spanMask(0, 16, 0, 16)).toBe(0xffff);
    expect(spanMask(8, 16, 0, 16)).toBe(0xff00);
    expect(spanMask(40, 48, 32, 16)).toBe(0xff00);
    expect(spanMask(40, 48, 48, 16)).toBe(0);
    expect(spanMask(0, 1, 0, 16)).toBe(1);
    expect(spanMask(5, 5, 0, 16)).toBe(0);
  });

  test("clips to a short last row", () => {
    expect(spanMask(0, 1000, 384, 12)).toBe(0xfff);
  });
});

describe("spansMask", () => {
  const spans = [
    { start: 0, end: 40 },
    { start: 48, end: 52 },
    { start: 256, end: 264 },
    { start: 317, end: 325 },
  ];

  test("unions the spans over the row", () => {
    expect(spansMask(spans, 32, 16)).toBe(0b0000_0000_1111_1111);
    expect(spansMask(spans, 48, 16)).toBe(0b1111);
    expect(spansMask(spans, 64, 16)).toBe(0);
    expect(spansMask(spans, 256, 16)).toBe(0xff);
    expect(spansMask(spans, 304, 16)).toBe(0xe000);
    expect(spansMask(spans, 320, 16)).toBe(0b1_1111);
  });

  test("handles no spans", () => {
    expect(spansMask([], 0, 16)).toBe(0);
  });
});
