/**
 * The page's streamed walk of a File on demand, in one thread: read through the Blob's stream in
 * chunks, cut into batch-aligned ranges in memory and walked range by range, it gives exactly what
 * analyze() gives on the bytes, whatever the chunk size, for every sample, the corpus and seeded
 * random segments (bad batch lengths included, where the rest is read through the fallback).
 */
import { referenceAnalyze } from "../../test/reference-walk.ts";
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { memorySource } from "../core/walk/stream-analyze.ts";
import { CORPUS, SAMPLE_BYTES, kernel, randomSegment, reference } from "../core/walk/walk-compare.test-util.ts";
import { analyzeStreamed, streamStarts } from "./range-workers.ts";
import { encodeBatch } from "../core/walk/encode.ts";
import { concat } from "../../test/helpers.ts";
import { sequentialRead, streamRanges } from "./stream-ranges.ts";

const CORPUS_BYTES = readdirSync(CORPUS)
  .filter((n) => n.endsWith(".bin"))
  .map((n) => new Uint8Array(readFileSync(new URL(n, CORPUS))));

function seeded(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

const streamed = (bytes: Uint8Array, chunkBytes: number, sliceBytes?: number, streams?: number) =>
  analyzeStreamed({
    file: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    sliceBytes,
    streams,
    source: memorySource(bytes),
    kernel,
    workers: 0,
    walkHere: true,
    chunkBytes,
    maxDiagnostics: 200_000,
    dropCodes: [],
  });

describe("analyzeStreamed", () => {
  const inputs = [
    ...SAMPLE_BYTES.map((b, i) => [`sample ${i}`, b] as const),
    ...CORPUS_BYTES.map((b, i) => [`corpus ${i}`, b] as const),
    ...Array.from({ length: 40 }, (_, i) => [`random ${i}`, randomSegment(seeded(i + 1))] as const),
  ];
  it.each(inputs)("%s: equals analyze() at every chunk size", async (_, bytes) => {
    const want = referenceAnalyze(bytes);
    for (const chunk of [300, 1000, 4096, 1 << 20]) expect(await streamed(bytes, chunk), `chunks of ${chunk}`).toEqual(want);
    expect(await streamed(bytes, 777, 100), "slices of 100 bytes").toEqual(want);
    for (const streams of [2, 3, 5]) expect(await streamed(bytes, 1000, undefined, streams), `${streams} streams at once`).toEqual(want);
  });

  it("cuts ranges that tile the input, in order, each whole in memory but a stuck tail", async () => {
    const bytes = randomSegment(seeded(99));
    const seen: { start: number; end: number; held: number }[] = [];
    await streamRanges(bytes.length, sequentialRead(new Blob([bytes as Uint8Array<ArrayBuffer>])), 512, ({ plan, bytes: b }) => {
      seen.push({ start: plan.start, end: plan.end, held: b.length });
    });
    expect(seen[0]?.start).toBe(0);
    expect(seen.at(-1)?.end).toBe(bytes.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.start).toBe(seen[i - 1]!.end);
    for (const r of seen.slice(0, -1)) expect(r.held).toBe(r.end - r.start);
  });

  it("starts the streams of a healthy segment at its batch starts", async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const int = seeded(seed);
      const bytes = concat(
        Array.from({ length: 8 + int(8) }, () =>
          encodeBatch(reference, { messages: Array.from({ length: 1 + int(4) }, () => ({ payload: new Uint8Array(int(300)).map(() => int(256)) })) }),
        ),
      );
      const batchStarts = new Set(referenceAnalyze(bytes).batches.map((b) => b.start));
      const starts = await streamStarts(new Blob([bytes as Uint8Array<ArrayBuffer>]), 4, 4096);
      expect(starts.length, `seed ${seed}: a start per stream`).toBe(4);
      for (const s of starts) expect(batchStarts.has(s), `seed ${seed}: ${s} is a batch start`).toBe(true);
    }
  });

  it("walks as analyze() does when a guessed start is a batch carried inside a payload", async () => {
    // Each message carries a whole batch as its payload, so a guess inside the big batch lands on one of those.
    const inner = encodeBatch(reference, { messages: [{ payload: new Uint8Array(40).fill(7) }, { payload: new Uint8Array(9).fill(1) }] });
    const outer = encodeBatch(reference, { messages: Array.from({ length: 12 }, () => ({ payload: inner })) });
    const bytes = concat([outer, inner, outer]);
    const starts = await streamStarts(new Blob([bytes as Uint8Array<ArrayBuffer>]), 3, 4096);
    const batchStarts = new Set(referenceAnalyze(bytes).batches.map((b) => b.start));
    expect(
      starts.some((s) => !batchStarts.has(s)),
      "a guess is not a batch start",
    ).toBe(true);
    const want = referenceAnalyze(bytes);
    for (const streams of [2, 3, 4]) expect(await streamed(bytes, 512, undefined, streams), `${streams} streams`).toEqual(want);
  });
});
