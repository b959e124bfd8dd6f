/**
 * The best-effort TLV decoder of user headers ([kind u8][length u32 LE][bytes], key then
 * value). Blocks are written by hand here, not by the project's encoder.
 */
import { describe, expect, it } from "vitest";
import { shortestFloat32 } from "./user-headers.ts";
import { HEADER_KINDS, decodeUserHeaders, findUserHeadersFault, type UserHeadersResult } from "./user-headers.ts";

/** One TLV entry: kind, u32 LE length, then the bytes (the length may be overridden to lie). */
function entry(kind: number, bytes: ArrayLike<number>, length = bytes.length): number[] {
  return [kind, length & 0xff, (length >>> 8) & 0xff, (length >>> 16) & 0xff, (length >>> 24) & 0xff, ...Array.from(bytes)];
}
const block = (...entries: number[][]): Uint8Array => new Uint8Array(entries.flat());
const str = (s: string): number[] => Array.from(new TextEncoder().encode(s));
const le = (n: bigint, width: number): number[] => Array.from({ length: width }, (_, i) => Number((BigInt.asUintN(width * 8, n) >> BigInt(8 * i)) & 0xffn));

function ok(r: UserHeadersResult) {
  if (!r.ok) throw new Error(`not TLV: ${r.reason}`);
  return r.headers;
}

// [kind, value bytes, expected text], one per kind 1..15
const KINDS: Array<[number, number[], string]> = [
  [1, [0xde, 0xad, 0x00], "de ad 00"],
  [2, str("héllo, wörld"), "héllo, wörld"],
  [3, [1], "true"],
  [4, [0xff], "-1"],
  [5, le(-32768n, 2), "-32768"],
  [6, le(2147483647n, 4), "2147483647"],
  [7, le(-9223372036854775808n, 8), "-9223372036854775808"],
  [8, le(-170141183460469231731687303715884105728n, 16), "-170141183460469231731687303715884105728"],
  [9, [255], "255"],
  [10, [0x34, 0x12], "4660"],
  [11, le(4294967295n, 4), "4294967295"],
  [12, le(18446744073709551615n, 8), "18446744073709551615"],
  [13, le((1n << 128n) - 1n, 16), "340282366920938463463374607431768211455"],
  [14, [0x00, 0x00, 0xc0, 0x3f], "1.5"], // IEEE 754 single 0x3fc00000
  [15, [0, 0, 0, 0, 0, 0, 0x04, 0xc0], "-2.5"], // IEEE 754 double 0xc004000000000000
];

describe("decodeUserHeaders: every kind", () => {
  it.each(KINDS)("kind %i decodes to the right text", (kind, bytes, text) => {
    const b = block(entry(2, str("key")), entry(kind, bytes));
    const [h] = ok(decodeUserHeaders(b));
    expect(h?.key).toEqual({ kind: 2, kindName: "string", offset: 5, length: 3, text: "key" });
    expect(h?.value).toEqual({ kind, kindName: HEADER_KINDS[kind], offset: 13, length: bytes.length, text });
    expect(findUserHeadersFault(b)).toBeNull();
  });

  it("names the kinds as the spec lists them", () => {
    expect(HEADER_KINDS.slice(1)).toEqual(["raw", "string", "bool", "i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "f32", "f64"]);
  });

  it("decodes keys of any kind and several headers in order, with offsets into the block", () => {
    const b = block(entry(11, le(7n, 4)), entry(3, [0]), entry(1, [0xab]), entry(4, [0x80]));
    const hs = ok(decodeUserHeaders(b));
    expect(hs.map((h) => [h.key.text, h.value.text])).toEqual([
      ["7", "false"],
      ["ab", "-128"],
    ]);
    expect(hs.map((h) => [h.key.offset, h.value.offset])).toEqual([
      [5, 14],
      [20, 26],
    ]);
  });

  it("accepts lengths 1 and 255 for the free-size kinds", () => {
    expect(decodeUserHeaders(block(entry(1, [0]), entry(2, new Array(255).fill(0x61)))).ok).toBe(true);
  });

  it("shows invalid UTF-8 in a string as replacement characters (UTF-8 is not checked)", () => {
    const b = block(entry(2, [0x61, 0xff, 0x62]), entry(2, [0xc3])); // a stray byte, a cut two-byte sequence
    const [h] = ok(decodeUserHeaders(b));
    expect(h?.key.text).toBe("a\uFFFDb");
    expect(h?.value.text).toBe("\uFFFD");
    expect(findUserHeadersFault(b)).toBeNull();
  });
});

describe("decodeUserHeaders: what is not TLV", () => {
  const FIXED: Array<[number, number]> = [
    [3, 1],
    [4, 1],
    [5, 2],
    [6, 4],
    [7, 8],
    [8, 16],
    [9, 1],
    [10, 2],
    [11, 4],
    [12, 8],
    [13, 16],
    [14, 4],
    [15, 8],
  ];

  it.each(FIXED)("kind %i needs exactly %i bytes", (kind, width) => {
    for (const w of [width - 1, width + 1]) {
      if (w < 1) continue;
      const b = block(entry(2, str("k")), entry(kind, new Array(w).fill(0)));
      const r = decodeUserHeaders(b);
      expect(r, `width ${w}`).toMatchObject({ ok: false, at: 6 });
      expect(findUserHeadersFault(b)).toMatchObject({ at: 6 });
    }
    expect(decodeUserHeaders(block(entry(2, str("k")), entry(kind, new Array(width).fill(0)))).ok).toBe(true);
  });

  it("rejects kind 0, as a key or a value", () => {
    expect(decodeUserHeaders(block(entry(0, [1]), entry(2, [0x61])))).toMatchObject({ ok: false, at: 0 });
    expect(decodeUserHeaders(block(entry(2, [0x61]), entry(0, [1])))).toMatchObject({ ok: false, at: 6 });
  });

  it("decodes kinds 16..255 as unknown kinds with raw bytes, of any length 1..255 (batch-format.md)", () => {
    for (const kind of [16, 200, 255]) {
      const r = decodeUserHeaders(block(entry(2, str("k")), entry(kind, [0xde, 0xad, 0xbe])));
      expect(r).toMatchObject({ ok: true, headers: [{ value: { kind, kindName: `unknown kind ${kind}`, length: 3, text: "de ad be" } }] });
      expect(decodeUserHeaders(block(entry(kind, [1]), entry(2, [0x61]))).ok).toBe(true);
      // The length rule still holds for unknown kinds.
      expect(decodeUserHeaders(block(entry(2, str("k")), entry(kind, [], 0))).ok).toBe(false);
    }
  });

  it("rejects lengths 0 and 256 (and a length with a high byte set)", () => {
    expect(decodeUserHeaders(block(entry(1, []), entry(2, [0x61])))).toMatchObject({ ok: false, at: 0 });
    expect(decodeUserHeaders(block(entry(2, [0x61]), entry(1, new Array(256).fill(1))))).toMatchObject({ ok: false, at: 6 });
    expect(decodeUserHeaders(block(entry(2, [0x61]), entry(1, [1], 0x01000001)))).toMatchObject({ ok: false, at: 6 });
  });

  it("rejects an odd number of entries", () => {
    expect(decodeUserHeaders(block(entry(2, str("lonely-key"))))).toMatchObject({ ok: false, at: 15 });
    expect(decodeUserHeaders(block(entry(2, [0x61]), entry(2, [0x62]), entry(2, [0x63]))).ok).toBe(false);
  });

  it("rejects leftover bytes: a partial head, or an entry longer than what remains", () => {
    const pair = block(entry(2, [0x61]), entry(9, [1])); // 12 bytes
    expect(decodeUserHeaders(pair).ok).toBe(true);
    for (const extra of [[0], [2, 1, 0, 0], [2, 1, 0, 0, 0], [2, 3, 0, 0, 0, 0x61, 0x62]]) {
      const b = new Uint8Array([...pair, ...extra]);
      expect(decodeUserHeaders(b), JSON.stringify(extra)).toMatchObject({ ok: false, at: 12 });
      expect(findUserHeadersFault(b)).toMatchObject({ at: 12 });
    }
  });

  it("rejects a bool whose value is not 0 or 1", () => {
    expect(decodeUserHeaders(block(entry(2, [0x61]), entry(3, [2])))).toMatchObject({ ok: false, at: 6 });
    expect(decodeUserHeaders(block(entry(3, [0xff]), entry(2, [0x61])))).toMatchObject({ ok: false, at: 0 });
  });

  it("rejects Iggy's golden raw user headers", () => {
    expect(decodeUserHeaders(new TextEncoder().encode("user-header-bytes")).ok).toBe(false);
  });
});

describe("f32 display", () => {
  it("shows the shortest decimal that reads back as the same f32", () => {
    expect(shortestFloat32(Math.fround(0.1))).toBe("0.1");
    expect(shortestFloat32(Math.fround(3.4028234663852886e38))).toBe("3.4028235e+38");
    expect(shortestFloat32(Math.fround(-1.5))).toBe("-1.5");
    expect(shortestFloat32(NaN)).toBe("NaN");
    for (const x of [1e-45, 123456.789, 0.3, 7e-10]) expect(Math.fround(Number(shortestFloat32(Math.fround(x))))).toBe(Math.fround(x));
  });
});
