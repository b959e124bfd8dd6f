// The hex map's rows, tooltip and inspector over a file read on demand: they read a few windows of it
// (pages through Blob.slice) and show what they show over the whole input in memory.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { kindNeeds } from "../../core/view/byte-map.ts";
import { encodeBatch } from "../../core/walk/encode.ts";
import { RangeIndex } from "../../lib/range-index.ts";
import { fileBytes, memoryBytes, type InputBytes } from "../../lib/input-bytes.ts";
import { byteInfoNeeds, describeByte } from "./byte-info.ts";
import { fieldAt } from "./field-at.ts";
import { analysed, goldenBatch, type TestInput } from "./fixtures.test-util.ts";
import { RowCache } from "./row-data.ts";
import { hitAt, peekField } from "./windows.ts";

const dir = fileURLToPath(new URL("../../../test/fixtures/corpus/", import.meta.url));
const corpus = readdirSync(dir)
  .filter((n) => n.endsWith(".bin"))
  .map((name) => [name, analysed(new Uint8Array(readFileSync(dir + name)))] as const);

/** A File-like Blob of `bytes` that counts the bytes read from it. */
function countedFile(bytes: Uint8Array): { file: Blob; read: () => number } {
  let read = 0;
  const blob = new Blob([bytes.slice()]);
  const file = Object.create(blob) as Blob;
  Object.defineProperty(file, "size", { value: blob.size });
  file.slice = (start?: number, end?: number) => {
    const part = blob.slice(start, end);
    read += part.size;
    return part;
  };
  return { file, read: () => read };
}

/** Loads what the tooltip of `offset` misses, as HexTooltip does, until nothing is missing. */
async function settledField(input: TestInput, source: InputBytes, offset: number) {
  for (let round = 0; round < 3; round++) {
    const p = peekField(input.analysis, source, offset);
    if (p.missing.length === 0) return p;
    await Promise.all(p.missing.map((r) => source.load(r.start, r.end)));
  }
  throw new Error("still missing after three rounds");
}

describe("the tooltip over windows", () => {
  test.each(corpus)("%s: every byte's tooltip from byteInfoNeeds' windows is the in-memory tooltip", (_, input) => {
    const diagnostics = new RangeIndex(input.analysis.diagnostics);
    for (let offset = 0; offset < input.bytes.length; offset++) {
      const kinds = kindNeeds(input.analysis, offset, offset + 1).map((r) => ({ start: r.start, bytes: input.bytes.slice(r.start, r.end) }));
      const hit = fieldAt(input.analysis, kinds, offset);
      expect(hit).toEqual(fieldAt(input.analysis, input.bytes, offset));
      const windows = [...kinds, ...byteInfoNeeds(hit).map((r) => ({ start: r.start, bytes: input.bytes.slice(r.start, r.end) }))];
      expect(describeByte(input.analysis, windows, offset, diagnostics)).toEqual(describeByte(input.analysis, input.bytes, offset, diagnostics));
    }
  });

  test("a byte deep in a 1 MiB payload reads its own byte and the payload's head, not the payload", async () => {
    const payload = new Uint8Array(1 << 20).map((_, i) => (i * 7) & 0xff);
    const input = analysed(encodeBatch(await loadXxh3(), { messages: [{ payload }] }));
    const offset = 256 + 48 + 900_000;
    const hit = fieldAt(input.analysis, [], offset);
    expect(hit).toMatchObject({ kind: "frame.payload", start: 304, end: 304 + (1 << 20) });
    const needs = byteInfoNeeds(hit);
    expect(needs.reduce((n, r) => n + r.end - r.start, 0)).toBeLessThanOrEqual(49);
    const { file, read } = countedFile(input.bytes);
    const source = fileBytes(file, { pageBytes: 4096, maxPages: 8 });
    expect(peekField(input.analysis, source, offset).missing.length).toBeGreaterThan(0);
    const p = await settledField(input, source, offset);
    const info = describeByte(input.analysis, p.windows, offset, new RangeIndex([]));
    expect(info).toEqual(describeByte(input.analysis, input.bytes, offset, new RangeIndex([])));
    expect(info.rows.find((r) => r.label === "Byte")?.value).toMatch(new RegExp(`^0x${input.bytes[offset]!.toString(16).padStart(2, "0")} `));
    expect(read()).toBeLessThanOrEqual(2 * 4096);
  });

  test("hitAt of a truncated frame's user headers is exact once its header was read", async () => {
    const input = analysed(goldenBatch().subarray(0, 391));
    const { file } = countedFile(input.bytes);
    const source = fileBytes(file, { pageBytes: 64, maxPages: 4 });
    expect(hitAt(input.analysis, source, 390).kind).toBe("frame.payload");
    await settledField(input, source, 390);
    expect(hitAt(input.analysis, source, 390)).toEqual(fieldAt(input.analysis, input.bytes, 390));
    expect(hitAt(input.analysis, source, 390).kind).toBe("frame.user_headers");
  });
});

describe("RowCache over a file read on demand", () => {
  test("rows have no bytes and name what to load until it lands, then a copy of their own 16 bytes", async () => {
    const input = analysed(goldenBatch());
    const { file, read } = countedFile(input.bytes);
    const source = fileBytes(file, { pageBytes: 128, maxPages: 4 });
    const cache = new RowCache(input.analysis, source);
    const before = cache.window(16, 20);
    expect(before.map((r) => r.bytes)).toEqual([null, null, null, null]);
    expect(cache.missing()).toEqual([{ start: 256, end: 320 }]);
    expect(read()).toBe(0);
    await source.load(256, 320);
    const after = cache.window(16, 20);
    expect(cache.missing()).toEqual([]);
    // One 128-byte page holds rows 16..19.
    expect(read()).toBe(128);
    for (const r of after) {
      expect(r.bytes!.start).toBe(r.start);
      expect(r.bytes!.bytes).toEqual(input.bytes.subarray(r.start, r.start + r.length));
      // A copy: the row does not keep a page of the file alive.
      expect(r.bytes!.bytes.buffer.byteLength).toBe(r.length);
    }
    const memory = new RowCache(input.analysis, memoryBytes(input.bytes)).window(16, 20);
    expect(after.map(({ kinds, edges, problems, rowEdge }) => ({ kinds, edges, problems, rowEdge }))).toEqual(
      memory.map(({ kinds, edges, problems, rowEdge }) => ({ kinds, edges, problems, rowEdge })),
    );
    // The same objects while nothing changes, so memoized rows do not re-render.
    expect(cache.window(16, 20)).toEqual(after);
    expect(cache.window(16, 20).every((r, i) => r === after[i])).toBe(true);
  });

  test("rows over a truncated frame wait for its header, then show the kinds the whole input gives", async () => {
    const input = analysed(goldenBatch().subarray(0, 391));
    const { file } = countedFile(input.bytes);
    const source = fileBytes(file, { pageBytes: 32, maxPages: 16 });
    const cache = new RowCache(input.analysis, source);
    const first = cache.window(23, 25);
    expect(first.every((r) => !r.exact)).toBe(true);
    expect(cache.missing()).toContainEqual(kindNeeds(input.analysis, 368, 391)[0]);
    await Promise.all(cache.missing().map((r) => source.load(r.start, r.end)));
    const rows = cache.window(23, 25);
    expect(rows.every((r) => r.exact && r.bytes)).toBe(true);
    const memory = new RowCache(input.analysis, input.bytes).window(23, 25);
    expect(rows.map((r) => r.kinds)).toEqual(memory.map((r) => r.kinds));
  });

  test("an in-memory input shares one window of the whole input among its rows", () => {
    const input = analysed(goldenBatch());
    const rows = new RowCache(input.analysis, input.bytes).window(0, 3);
    expect(rows[0]!.bytes).toBe(rows[2]!.bytes);
    expect(rows[0]!.bytes!.bytes).toBe(input.bytes);
  });
});
