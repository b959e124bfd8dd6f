/** The encoder of valid batches: TLV layout, frame and batch layout, stamping. Expected bytes are written out by hand. */
import { describe, expect, it } from "vitest";
import { concat, encodeBatch, encodeFrame, encodeUserHeaders, stampBatch, type HeaderKind } from "./encode.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import { batchChecksum, frameStartsOf, getU32, getU64, hexToBytes, xxh } from "../../../test/helpers.ts";

describe("encodeUserHeaders", () => {
  it("writes [kind][length u32 LE][bytes], key then value, kinds by name or number", () => {
    const a = encodeUserHeaders([{ key: { kind: "string", value: "ab" }, value: { kind: "u16", value: 0x1234 } }]);
    expect([...a]).toEqual([2, 2, 0, 0, 0, 0x61, 0x62, 10, 2, 0, 0, 0, 0x34, 0x12]);
    expect(encodeUserHeaders([{ key: { kind: 2, value: "ab" }, value: { kind: 10, value: 0x1234 } }])).toEqual(a);
    expect(encodeUserHeaders([])).toEqual(new Uint8Array(0));
  });

  it("writes integers two's complement little-endian at their exact width", () => {
    const h = (kind: HeaderKind, value: number | bigint | boolean) => [
      ...encodeUserHeaders([{ key: { kind: "u8", value: 0 }, value: { kind, value } }]).subarray(11),
    ];
    expect(h("bool", true)).toEqual([1]);
    expect(h("i8", -2)).toEqual([0xfe]);
    expect(h("i32", -1)).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect(h("i64", -2n)).toEqual([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(h("u64", 0x0102030405060708n)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(h("i128", -1n)).toEqual(new Array(16).fill(0xff));
    expect(h("u128", 1n << 64n)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("encodes every f32/f64 value, NaN and the infinities included (IEEE 754 bit patterns)", () => {
    const cases: Array<[HeaderKind, number, string, string]> = [
      ["f64", Infinity, "000000000000f07f", "Infinity"],
      ["f64", -Infinity, "000000000000f0ff", "-Infinity"],
      ["f64", NaN, "000000000000f87f", "NaN"],
      ["f64", -0, "0000000000000080", "0"],
      ["f32", Infinity, "0000807f", "Infinity"],
      ["f32", -Infinity, "000080ff", "-Infinity"],
      ["f32", NaN, "0000c07f", "NaN"],
      ["f32", 0.5, "0000003f", "0.5"],
    ];
    for (const [kind, value, hex, text] of cases) {
      const block = encodeUserHeaders([{ key: { kind: "string", value: "k" }, value: { kind, value } }]);
      expect(block.subarray(11), `${kind} ${value}`).toEqual(hexToBytes(hex));
      const decoded = decodeUserHeaders(block);
      expect(decoded.ok && decoded.headers[0]?.value.text).toBe(text);
    }
  });

  it("refuses what TLV cannot hold: kind 0 or 16, an unknown name, an empty or 256-byte value", () => {
    const one = (kind: number | string, value: string | Uint8Array) => () =>
      encodeUserHeaders([{ key: { kind, value }, value: { kind: "u8", value: 1 } } as never]);
    expect(one(0, "x")).toThrow(RangeError);
    expect(one(16, "x")).toThrow(RangeError);
    expect(one("nope", "x")).toThrow(RangeError);
    expect(one("string", "")).toThrow(RangeError);
    expect(one("raw", new Uint8Array(256))).toThrow(RangeError);
    expect(one("raw", new Uint8Array(255))).not.toThrow();
  });
});

describe("encodeFrame / encodeBatch / stampBatch", () => {
  it("lays a frame out as the spec's table says", () => {
    const f = encodeFrame(xxh, { payload: "hi", id: 0x0102n | (0xffn << 120n), timestampDelta: 9, userHeaders: new Uint8Array([7, 7, 7]) }, 4);
    expect(f.length).toBe(48 + 2 + 3);
    expect(getU64(f, 0)).toBe(xxh.hash(f.subarray(8)));
    expect([...f.subarray(8, 24)]).toEqual([0x02, 0x01, ...new Array(13).fill(0), 0xff]);
    expect([getU32(f, 24), getU32(f, 28), getU32(f, 32), getU32(f, 36)]).toEqual([4, 9, 3, 2]);
    expect([...f.subarray(40, 48)]).toEqual(new Array(8).fill(0));
    expect([...f.subarray(48)]).toEqual([0x68, 0x69, 7, 7, 7]); // payload first, then user headers
  });

  it("sets batch_length, message_count, zero reserved bytes and the batch checksum", () => {
    const b = encodeBatch(xxh, { originTimestamp: 5n, messages: [{ payload: "a" }, { payload: "" }, { payload: "ccc", offsetDelta: 2 }] });
    expect(b.length).toBe(256 + 49 + 48 + 51);
    expect(getU64(b, 24)).toBe(5n);
    expect(getU64(b, 32)).toBe(BigInt(b.length));
    expect(getU32(b, 48)).toBe(3);
    expect(b.subarray(52, 256).every((x) => x === 0)).toBe(true);
    expect(frameStartsOf(b)).toEqual([256, 305, 353]);
    expect(frameStartsOf(b).map((s) => getU32(b, s + 24))).toEqual([0, 1, 2]);
    expect(getU64(b, 40)).toBe(batchChecksum(b));
  });

  it("stamps a copy and recomputes its checksum, leaving the producer batch as it was", () => {
    const p = encodeBatch(xxh, { messages: [{ payload: "x" }] });
    const before = p.slice();
    const s = stampBatch(xxh, p, { partitionId: 4n, baseOffset: 10n, baseTimestamp: 20n });
    expect(p).toEqual(before);
    expect([getU64(s, 0), getU64(s, 8), getU64(s, 16)]).toEqual([4n, 10n, 20n]);
    expect(getU64(s, 40)).toBe(batchChecksum(s));
    expect(getU64(s, 40)).not.toBe(getU64(p, 40));
    expect(s.subarray(256)).toEqual(p.subarray(256));
  });

  it("concat joins byte strings in order", () => {
    expect([...concat([new Uint8Array([1]), new Uint8Array(0), new Uint8Array([2, 3])])]).toEqual([1, 2, 3]);
  });
});
