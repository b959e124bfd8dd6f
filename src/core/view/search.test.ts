/** The search core: how queries are read, and byte, id and message-offset searches over real encoded batches. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { analyze } from "../walk/analyze.ts";
import { encodeBatch } from "../walk/encode.ts";
import { findIds, findMessageOffset, findPattern, parseQuery, searchBytes, searchWindows } from "./search.ts";
import { concat, xxh } from "../../../test/helpers.ts";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

describe("parseQuery", () => {
  it("reads byte offsets in hex and decimal", () => {
    expect(parseQuery("0x3b5")).toEqual({ kind: "offset", offset: 0x3b5 });
    expect(parseQuery(" 949 ")).toEqual({ kind: "offset", offset: 949 });
    expect(parseQuery("0X10")).toEqual({ kind: "offset", offset: 16 });
  });

  it("reads batch N and @message-offset", () => {
    expect(parseQuery("batch 3")).toEqual({ kind: "batch", index: 3 });
    expect(parseQuery("Batch #12")).toEqual({ kind: "batch", index: 12 });
    expect(parseQuery("@1234")).toEqual({ kind: "message-offset", value: 1234n });
    expect(parseQuery("@18446744073709551615")).toEqual({ kind: "message-offset", value: 18446744073709551615n });
  });

  it("reads a UUID in wire order first and a u128 in value (little-endian) order first", () => {
    const q = parseQuery("74f75857-fc08-46ee-9129-f0ee7cb845ee");
    expect(q.kind).toBe("id");
    if (q.kind !== "id") return;
    expect(hex(q.orders[0]!)).toBe("74f75857fc0846ee9129f0ee7cb845ee");
    expect(hex(q.orders[1]!)).toBe("ee45b87ceef02991ee4608fc5758f774");
    const v = parseQuery("id:0x1");
    expect(v.kind === "id" && hex(v.orders[0]!)).toBe("01" + "00".repeat(15));
    const bare = parseQuery("0123456789abcdef0000000000000001");
    expect(bare.kind === "id" && hex(bare.orders[0]!)).toBe("0100000000000000efcdab8967452301");
  });

  it("reads hex bytes when spaced, prefixed or long with a digit; text otherwise", () => {
    expect(parseQuery("de ad be ef")).toEqual({ kind: "bytes", pattern: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]), as: "hex" });
    expect(parseQuery("hex:c0ffee")).toEqual({ kind: "bytes", pattern: Uint8Array.from([0xc0, 0xff, 0xee]), as: "hex" });
    expect(parseQuery("0x0102030405060708090a0b")).toMatchObject({ kind: "bytes", as: "hex" });
    expect(parseQuery("cafe1234")).toMatchObject({ kind: "bytes", as: "hex" });
    expect(parseQuery("hello")).toEqual({ kind: "bytes", pattern: new TextEncoder().encode("hello"), as: "text" });
    expect(parseQuery('"949"')).toEqual({ kind: "bytes", pattern: new TextEncoder().encode("949"), as: "text" });
    expect(parseQuery("batch of")).toMatchObject({ kind: "bytes", as: "text" });
    expect(parseQuery("   ")).toEqual({ kind: "empty" });
  });
});

/** Every start of pattern in bytes, the slow obvious way. */
function naive(bytes: Uint8Array, pattern: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + pattern.length <= bytes.length; i++) {
    let k = 0;
    while (k < pattern.length && bytes[i + k] === pattern[k]) k++;
    if (k === pattern.length) out.push(i);
  }
  return out;
}

describe("byte search", () => {
  it("finds the same matches as a naive scan, across chunk edges, overlapping ones included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 300 }).map((a) => a.map((b) => b % 3)),
        fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => a.map((b) => b % 3)),
        fc.integer({ min: 1, max: 40 }),
        async (bytes, pattern, chunk) => {
          let pauses = 0;
          const r = await searchBytes(bytes, pattern, {
            limit: 1e9,
            chunk,
            pause: () => {
              pauses++;
              return Promise.resolve();
            },
          });
          expect(r?.starts).toEqual(naive(bytes, pattern));
          expect(r?.capped).toBe(false);
          expect(pauses).toBe(Math.max(0, Math.ceil(bytes.length / chunk) - 1));
        },
      ),
    );
  });

  it("stops at the limit and says so; stops with null when cancelled", async () => {
    const bytes = new Uint8Array(1000);
    const capped = await searchBytes(bytes, Uint8Array.of(0, 0), { limit: 10 });
    expect(capped).toEqual({ starts: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], capped: true });
    let paused = 0;
    const cancelled = await searchBytes(bytes, Uint8Array.of(1), {
      limit: 10,
      chunk: 100,
      pause: () => {
        paused++;
        return Promise.resolve();
      },
      cancelled: () => paused >= 2,
    });
    expect(cancelled).toBeNull();
    const out: number[] = [];
    findPattern(Uint8Array.of(1, 2, 1, 2), Uint8Array.of(1, 2), 1, 4, out, 10);
    expect(out).toEqual([2]);
  });
});

describe("windowed byte search (the input read a window at a time, never whole)", () => {
  it("finds the same matches as a naive scan, a match across two windows once, and reads each window once, however many are read ahead", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 300 }).map((a) => a.map((b) => b % 3)),
        fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => a.map((b) => b % 3)),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 4 }),
        async (bytes, pattern, chunk, ahead) => {
          const reads: [number, number][] = [];
          const read = (start: number, end: number) => {
            reads.push([start, end]);
            return Promise.resolve(bytes.slice(start, end));
          };
          const r = await searchWindows(bytes.length, read, pattern, { limit: 1e9, chunk }, ahead);
          expect(r?.starts).toEqual(naive(bytes, pattern));
          expect(r?.capped).toBe(false);
          // Windows start every `chunk` bytes and overlap by the pattern's length − 1, no more.
          expect(reads.map(([s]) => s)).toEqual(Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => i * chunk));
          for (const [s, e] of reads) expect(e).toBe(Math.min(bytes.length, s + chunk + pattern.length - 1));
        },
      ),
    );
  });

  it("stops at the limit and says so; stops with null when cancelled, even with a read in flight that fails", async () => {
    const bytes = new Uint8Array(1000);
    const read = (start: number, end: number) => Promise.resolve(bytes.subarray(start, end));
    expect(await searchWindows(bytes.length, read, Uint8Array.of(0, 0), { limit: 10, chunk: 7 })).toEqual({
      starts: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      capped: true,
    });
    let windows = 0;
    const failing = (start: number, end: number) => (++windows > 2 ? Promise.reject(new Error("gone")) : read(start, end));
    expect(await searchWindows(bytes.length, failing, Uint8Array.of(1), { limit: 10, chunk: 100, cancelled: () => windows >= 3 })).toBeNull();
  });
});

describe("id and message-offset search", () => {
  const a = encodeBatch(xxh, {
    partitionId: 1n,
    baseOffset: 100n,
    baseTimestamp: 5n,
    messages: [
      { payload: "one", id: 0x74f75857_fc0846ee_9129f0ee_7cb845een },
      { payload: "two", id: 2n },
    ],
  });
  const b = encodeBatch(xxh, {
    partitionId: 1n,
    baseOffset: 102n,
    baseTimestamp: 6n,
    messages: [
      { payload: "three", id: 3n },
      { payload: "four", id: 2n, offsetDelta: 7 },
    ],
  });
  const bytes = concat([a, b]);

  it("finds a frame by its message offset, also when the delta is not the frame's index", async () => {
    const analysis = await analyze(bytes);
    expect(findMessageOffset(analysis, 101n, 10)).toEqual([1]);
    expect(findMessageOffset(analysis, 102n, 10)).toEqual([2]);
    expect(findMessageOffset(analysis, 109n, 10)).toEqual([3]);
    expect(findMessageOffset(analysis, 99n, 10)).toEqual([]);
  });

  it("finds ids in their id field only, in either byte order", async () => {
    const analysis = await analyze(bytes);
    const two = parseQuery("id:2");
    if (two.kind !== "id") throw new Error("not an id");
    const hits = findIds(analysis, bytes, two.orders, 10);
    expect(hits.map((h) => h.start)).toEqual([analysis.frames.start[1]! + 8, analysis.frames.start[3]! + 8]);
    expect(hits.every((h) => h.end - h.start === 16)).toBe(true);
    // The u128 value 0x74f7…45ee is stored little-endian, so its UUID spelling reads reversed bytes.
    const asValue = parseQuery("0x74f75857fc0846ee9129f0ee7cb845ee");
    if (asValue.kind !== "id") throw new Error("not an id");
    expect(findIds(analysis, bytes, asValue.orders, 10).map((h) => h.start)).toEqual([analysis.frames.start[0]! + 8]);
  });
});
