/** The one plural, hex-offset and time formatter the page, the report and the CLI share. */
import { describe, expect, it } from "vitest";
import { formatCount, hexOffset, plural, timeText } from "./values.ts";

describe("plural", () => {
  it("picks the singular for exactly one, as number or bigint, and spells the count as asked", () => {
    expect(plural(1, "byte")).toBe("1 byte");
    expect(plural(0, "byte")).toBe("0 bytes");
    expect(plural(1n, "byte")).toBe("1 byte");
    expect(plural(2n ** 64n - 1n, "byte")).toBe("18446744073709551615 bytes");
    expect(plural(2, "complete frame", "complete frames")).toBe("2 complete frames");
    expect(plural(12345, "error", undefined, (n) => formatCount(Number(n)))).toBe("12,345 errors");
  });
});

describe("formatCount", () => {
  it("groups digits exactly as en-US Intl does, whole or not", () => {
    const intl = new Intl.NumberFormat("en-US");
    const values = [0, -0, 1, 12, 123, 1234, -1234, -123, 999_999, 1_000_000, 7_242_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (const n of [...values, 1.5, 1234.5678, 2 ** 60, 1e21, NaN, Infinity]) expect(formatCount(n)).toBe(intl.format(n));
  });
});

describe("hexOffset", () => {
  it("pads to 8 digits unless told otherwise", () => {
    expect(hexOffset(40)).toBe("0x00000028");
    expect(hexOffset(0x1_0000_0000)).toBe("0x100000000");
    expect(hexOffset(40, 0)).toBe("0x28");
  });
});

describe("timeText", () => {
  it("shows a date with microseconds, and the caller's words for zero and out of range", () => {
    const wording = { zero: "unset", outOfRange: (m: bigint) => `${m} µs` };
    expect(timeText(1_764_420_000_123_456n, wording)).toBe("2025-11-29T12:40:00.123456Z");
    expect(timeText(0n, wording)).toBe("unset");
    expect(timeText(0n, { outOfRange: () => "?" })).toBe("1970-01-01T00:00:00.000000Z");
    expect(timeText(2n ** 64n - 1n, wording)).toBe("18446744073709551615 µs");
  });
});
