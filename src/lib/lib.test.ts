import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { deflateSync } from "fflate";
import { decodePastedText } from "./paste-decode.ts";
import { formatBytes, toBase64, toCArray, toRustByteString, toXxd } from "./byte-formats.ts";
import { decodeShareFragment, encodeShareFragment, SHARE_PREFIX } from "./share-codec.ts";
import { RangeIndex } from "./range-index.ts";

const sample = Uint8Array.from([0x00, 0x01, 0x7f, 0x41, 0x22, 0x5c, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0]);

describe("paste decoding", () => {
  it("reads hex with spaces, 0x prefixes and commas", () => {
    expect(decodePastedText("de ad be ef")).toEqual({ ok: true, bytes: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]), form: "hex" });
    expect(decodePastedText("0xde, 0xAD,\n0xbe 0xef")).toMatchObject({ ok: true, form: "hex" });
  });
  it("reads its own xxd output back, with offsets and the ASCII column", () => {
    const text = toXxd(sample);
    const r = decodePastedText(text);
    expect(r).toEqual({ ok: true, bytes: sample, form: "xxd" });
  });
  it("reads base64", () => {
    expect(decodePastedText(toBase64(sample))).toEqual({ ok: true, bytes: sample, form: "base64" });
  });
  it("says why it rejects text that is none of these", () => {
    expect(decodePastedText("hello, world!")).toEqual({ ok: false, reason: "pasted text is not hex, an xxd dump or base64" });
    expect(decodePastedText("   ")).toMatchObject({ ok: false });
  });
  it("round-trips any bytes through xxd and base64", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
        expect(decodePastedText(toXxd(bytes))).toMatchObject({ ok: true, bytes });
        expect(decodePastedText(formatBytes(bytes, "hex"))).toMatchObject({ ok: true, bytes });
      }),
      { numRuns: 200 },
    );
  });
});

describe("copy formats", () => {
  it("renders a C array and a Rust byte string", () => {
    expect(toCArray(Uint8Array.from([1, 255]), "x")).toBe("const unsigned char x[2] = {\n  0x01, 0xff\n};");
    expect(toRustByteString(Uint8Array.from([0x41, 0x22, 0x5c, 0x00]))).toBe('b"A\\"\\\\\\x00"');
  });
  it("aligns xxd rows to the absolute offset", () => {
    const line = toXxd(Uint8Array.from([0xab]), 0x13);
    // Byte k of a row sits at column 10 + 2k + floor(k/2); the ASCII column starts at 51.
    expect(line.slice(0, 10)).toBe("00000010: ");
    expect(line.indexOf("ab")).toBe(10 + 2 * 3 + 1);
    expect(line.indexOf(".")).toBe(51 + 3);
  });
});

describe("share link codec", () => {
  it("round-trips input, name and selection", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.string(), fc.option(fc.tuple(fc.nat(5000), fc.nat(5000))), (bytes, name, sel) => {
        const selection = sel ? { start: Math.min(...sel), end: Math.max(...sel) } : null;
        const fragment = encodeShareFragment({ name, bytes, selection });
        expect(fragment.startsWith(SHARE_PREFIX)).toBe(true);
        expect(/^[#A-Za-z0-9._-]+$/.test(fragment)).toBe(true);
        // A selection that reaches past the bytes cannot be shown: the decoder drops it.
        const kept = selection && selection.end <= bytes.length ? selection : null;
        expect(decodeShareFragment(fragment)).toEqual({ name, bytes, selection: kept });
      }),
      { numRuns: 100 },
    );
  });
  it("carries the format only when one is forced, and reads the envelope of older links as a format", () => {
    const bytes = Uint8Array.of(1, 2, 3);
    expect(decodeShareFragment(encodeShareFragment({ name: "p", bytes, selection: null, format: "poll-reply" }))).toEqual({
      name: "p",
      bytes,
      selection: null,
      format: "poll-reply",
    });
    expect(decodeShareFragment(encodeShareFragment({ name: "p", bytes, selection: null, format: "auto" }))).toEqual({ name: "p", bytes, selection: null });
    // A link made before formats: meta {"n","s","e"} deflated the same way.
    const meta = new TextEncoder().encode(JSON.stringify({ n: "old", s: null, e: "replicated-record" }));
    const raw = new Uint8Array(4 + meta.length + bytes.length);
    new DataView(raw.buffer).setUint32(0, meta.length, true);
    raw.set(meta, 4);
    raw.set(bytes, 4 + meta.length);
    const old =
      SHARE_PREFIX +
      btoa(String.fromCharCode(...deflateSync(raw)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    expect(decodeShareFragment(old)).toEqual({ name: "old", bytes, selection: null, format: "prepare" });
  });

  it("returns null for damaged or foreign fragments instead of throwing", () => {
    expect(decodeShareFragment("#other")).toBeNull();
    expect(decodeShareFragment(SHARE_PREFIX + "!!!")).toBeNull();
    expect(decodeShareFragment(SHARE_PREFIX + "AAAA")).toBeNull();
  });
  it("refuses a link that inflates past the cap (a crafted link cannot exhaust memory)", () => {
    const bytes = new Uint8Array(300_000);
    const fragment = encodeShareFragment({ name: "bomb", bytes, selection: null });
    expect(fragment.length).toBeLessThan(2000);
    expect(decodeShareFragment(fragment, 100_000)).toBeNull();
    expect(decodeShareFragment(fragment, 400_000)?.bytes.length).toBe(300_000);
  });
  it("compresses repetitive batches well", () => {
    const bytes = new Uint8Array(64 * 1024).fill(7);
    expect(encodeShareFragment({ name: "x", bytes, selection: null }).length).toBeLessThan(1000);
  });
});

describe("range index", () => {
  it("finds every range overlapping a window, like a linear scan", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(500), fc.nat(60)), { maxLength: 80 }), fc.nat(560), fc.nat(40), (raw, at, len) => {
        const ranges = raw.map(([s, l]) => ({ start: s, end: s + l })).sort((a, b) => a.start - b.start);
        const index = new RangeIndex(ranges);
        const expected = ranges.filter((r) => r.start < at + len + 1 && r.end > at);
        expect(index.overlapping(at, at + len + 1)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

import { lowerBound, upperBound } from "./binary-search.ts";
describe("binary search", () => {
  it("agrees with a linear scan on sorted arrays", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (raw, value) => {
        const sorted = Float64Array.from(raw).sort();
        const firstGreater = sorted.findIndex((x) => x > value);
        const firstAtLeast = sorted.findIndex((x) => x >= value);
        expect(upperBound(sorted, value)).toBe(firstGreater < 0 ? sorted.length : firstGreater);
        expect(lowerBound(sorted, value)).toBe(firstAtLeast < 0 ? sorted.length : firstAtLeast);
      }),
      { numRuns: 300 },
    );
  });
});
