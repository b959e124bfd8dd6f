// The byte map read through windows (an input read on demand) gives what it gives over the whole input.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { bytesIn, fillKinds, kindNeeds, locateByte } from "./byte-map.ts";
import type { ByteWindow } from "../../lib/input-bytes.ts";
import { FRAME_FIELD } from "../../format/fields.ts";
import { analysed, goldenBatch } from "../../ui/hex/fixtures.test-util.ts";

const PL = FRAME_FIELD.payload_length;

const xxh = await loadXxh3();
const dir = fileURLToPath(new URL("../../../test/fixtures/corpus/", import.meta.url));
const corpus = readdirSync(dir)
  .filter((n) => n.endsWith(".bin"))
  .map((name) => {
    const bytes = new Uint8Array(readFileSync(dir + name));
    return { name, bytes, analysis: analyzeWith(xxh, bytes) };
  });

/** Windows of `bytes` holding exactly the ranges asked for, nothing more. */
const windowsOf = (bytes: Uint8Array, ranges: { start: number; end: number }[]): ByteWindow[] =>
  ranges.map((r) => ({ start: r.start, bytes: bytes.slice(r.start, r.end) }));

describe("bytesIn", () => {
  const w: ByteWindow = { start: 100, bytes: new Uint8Array([1, 2, 3, 4]) };
  test("reads absolute offsets inside one window, null across its edges", () => {
    expect([...bytesIn(w, 101, 103)!]).toEqual([2, 3]);
    expect(bytesIn(w, 99, 101)).toBeNull();
    expect(bytesIn(w, 103, 105)).toBeNull();
    expect([...bytesIn([{ start: 0, bytes: new Uint8Array([9]) }, w], 103, 104)!]).toEqual([4]);
    expect([...bytesIn(new Uint8Array([5, 6, 7]), 1, 3)!]).toEqual([6, 7]);
    expect(bytesIn(new Uint8Array(3), 2, 4)).toBeNull();
  });
});

describe("kindNeeds", () => {
  test("names only a truncated frame's payload_length, and only for ranges over its body", () => {
    const t = corpus.find((c) => c.name === "09-frame-truncated.bin")!;
    const frame = t.analysis.batches.at(0)!.truncatedFrame!;
    expect(frame.headerComplete).toBe(true);
    expect(kindNeeds(t.analysis, frame.start + 48, frame.end)).toEqual([{ start: frame.start + PL.offset, end: frame.start + PL.offset + 4 }]);
    expect(kindNeeds(t.analysis, 0, frame.start + 48)).toEqual([]);
    const golden = corpus.find((c) => c.name.startsWith("01-"))!;
    expect(kindNeeds(golden.analysis, 0, golden.bytes.length)).toEqual([]);
  });
});

describe("locateByte and fillKinds over windows", () => {
  test.each(corpus.map((c) => [c.name, c] as const))("%s: only kindNeeds' bytes give every byte's kind and edge", (_, { bytes, analysis }) => {
    const n = bytes.length;
    const windows = windowsOf(bytes, kindNeeds(analysis, 0, n));
    const whole = [new Uint8Array(n), new Uint8Array(n)] as const;
    const windowed = [new Uint8Array(n), new Uint8Array(n)] as const;
    fillKinds(analysis, bytes, 0, n, ...whole);
    fillKinds(analysis, windows, 0, n, ...windowed);
    expect(windowed).toEqual(whole);
    for (let i = 0; i < n; i++) expect(locateByte(analysis, windowsOf(bytes, kindNeeds(analysis, i, i + 1)), i)).toEqual(locateByte(analysis, bytes, i));
  });

  test("a truncated frame whose header is not at hand reads as payload to its end, then exactly once it is", () => {
    // The golden batch less its last 5 bytes: frame 1 keeps its payload and loses part of its user headers.
    const { bytes, analysis } = analysed(goldenBatch().subarray(0, 391));
    const t = analysis.batches.at(0)!.truncatedFrame!;
    expect(t).toMatchObject({ start: 317, end: 391, headerComplete: true });
    const last = t.end - 1;
    expect(locateByte(analysis, bytes, last).kind).toBe("frame.user_headers");
    expect(locateByte(analysis, [], last).kind).toBe("frame.payload");
    expect(locateByte(analysis, windowsOf(bytes, kindNeeds(analysis, last, last + 1)), last)).toEqual(locateByte(analysis, bytes, last));
    const n = bytes.length;
    const [kinds, edges] = [new Uint8Array(n), new Uint8Array(n)];
    const [want, wantEdges] = [new Uint8Array(n), new Uint8Array(n)];
    fillKinds(analysis, windowsOf(bytes, kindNeeds(analysis, 300, n)), 300, n, kinds, edges);
    fillKinds(analysis, bytes, 300, n, want, wantEdges);
    expect([kinds, edges]).toEqual([want, wantEdges]);
  });
});
