/** ByteReader: little-endian reads at absolute positions, bounds, zero runs. */
import { describe, expect, it } from "vitest";
import { ByteReader, readU32, readUintLE } from "./reader.ts";

describe("ByteReader", () => {
  const bytes = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  const r = new ByteReader(bytes.subarray(1)); // a view with a byteOffset: reads must honour it

  it("reads u32, u64 and u128 little-endian", () => {
    expect(r.u32(0)).toBe(0x04030201);
    expect(r.u64(0)).toBe(0x0807060504030201n);
    expect(r.u128(0)).toBe(0x100f0e0d0c0b0a090807060504030201n);
    expect(r.u32(12)).toBe(0x100f0e0d);
  });

  it("refuses reads past either end (a decoder bug, never a property of the input)", () => {
    expect(() => r.u32(13)).toThrow(RangeError);
    expect(() => r.u64(-1)).toThrow(RangeError);
    expect(() => r.u128(1)).toThrow(RangeError);
    expect(r.has(12, 4)).toBe(true);
    expect(r.has(13, 4)).toBe(false);
  });

  it("clamps slices to the input", () => {
    expect([...r.slice(-5, 2)]).toEqual([1, 2]);
    expect([...r.slice(14, 99)]).toEqual([15, 16]);
  });

  it("finds zero ranges and nonzero runs", () => {
    const z = new ByteReader(new Uint8Array([0, 5, 5, 0, 0, 9, 0, 1]));
    expect(z.allZero(3, 5)).toBe(true);
    expect(z.allZero(0, 2)).toBe(false);
    expect(z.nonzeroRuns(0, 8)).toEqual([
      [1, 3],
      [5, 6],
      [7, 8],
    ]);
    expect(z.nonzeroRuns(2, 7)).toEqual([
      [2, 3],
      [5, 6],
    ]);
    expect(z.nonzeroRuns(3, 5)).toEqual([]);
  });

  it("reads an unaligned u32 byte by byte as ByteReader does, up to 2^32 - 1", () => {
    const b = new Uint8Array([9, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02, 0x03, 0x04]);
    expect(readU32(b, 1)).toBe(0xffffffff);
    expect(readU32(b, 5)).toBe(0x04030201);
    expect(readU32(b, 2)).toBe(new ByteReader(b).u32(2));
  });

  it("reads an integer of any width little-endian, a cut field's missing bytes as 0", () => {
    expect(readUintLE(bytes, 1, 16)).toBe(r.u128(0));
    expect(readUintLE(bytes, 1, 3)).toBe(0x030201n);
    expect(readUintLE(bytes, 15, 4)).toBe(0x100fn);
  });
});
