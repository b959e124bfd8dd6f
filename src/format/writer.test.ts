/** ByteWriter writes what ByteReader reads, little-endian, at absolute positions of a view. */
import { describe, expect, it } from "vitest";
import { ByteReader } from "./reader.ts";
import { ByteWriter } from "./writer.ts";

describe("ByteWriter", () => {
  it("round-trips every width through ByteReader, honouring a view's byteOffset", () => {
    const backing = new Uint8Array(64).fill(0xee);
    const view = backing.subarray(3, 3 + 48);
    const w = new ByteWriter(view);
    w.u8(0, 0xab);
    w.u16(1, 0xbeef);
    w.u32(3, 0xdeadbeef);
    w.u64(7, (1n << 64n) - 2n);
    w.u128(15, (1n << 127n) + 5n);
    w.i8(31, -2);
    w.i16(32, -3);
    w.i32(34, -4);
    w.i64(38, -5n);
    const r = new ByteReader(view);
    expect([r.u8(0), r.u16(1), r.u32(3), r.u64(7), r.u128(15)]).toEqual([0xab, 0xbeef, 0xdeadbeef, (1n << 64n) - 2n, (1n << 127n) + 5n]);
    expect([r.i8(31), r.i16(32), r.i32(34), r.i64(38)]).toEqual([-2, -3, -4, -5n]);
    expect(backing[2]).toBe(0xee);
    expect(backing[3]).toBe(0xab);
    expect([...view.subarray(3, 7)]).toEqual([0xef, 0xbe, 0xad, 0xde]);
  });

  it("writes floats, byte runs and fills; wraps integers to their width", () => {
    const w = ByteWriter.alloc(24);
    w.f32(0, 0.5);
    w.f64(4, -1.25);
    w.set(12, new Uint8Array([1, 2, 3]));
    w.fill(9, 15, 16);
    w.u64(16, -1n);
    const r = new ByteReader(w.bytes);
    expect([r.f32(0), r.f64(4)]).toEqual([0.5, -1.25]);
    expect([...w.bytes.subarray(12, 16)]).toEqual([1, 2, 3, 9]);
    expect(r.u64(16)).toBe((1n << 64n) - 1n);
  });

  it("refuses writes past either end (a caller bug)", () => {
    const w = ByteWriter.alloc(8);
    expect(() => w.u32(5, 1)).toThrow(RangeError);
    expect(() => w.u64(-1, 1n)).toThrow(RangeError);
    expect(() => w.set(6, new Uint8Array(3))).toThrow(RangeError);
    expect(w.has(4, 4)).toBe(true);
    expect(w.has(5, 4)).toBe(false);
  });
});
