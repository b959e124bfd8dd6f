/** Ranges of an input read on demand for the share panel: only the range (its batches when redacted) is read, and it is what the input in memory gives. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { fileBytes, memoryBytes } from "../../lib/input-bytes.ts";
import { frameEnd } from "../../core/model/frame-columns.ts";
import { rangeBytes, type ShareSource } from "./share-link.ts";
import { xxh } from "../../../test/helpers.ts";

const bytes = new Uint8Array(readFileSync(new URL("../../../test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin", import.meta.url)));
const analysis = analyzeWith(xxh, bytes);
const base = { name: "19.bin", analysis, startOffset: 0, format: "auto" };
const inMemory: ShareSource = { ...base, bytes, source: memoryBytes(bytes) };

/** The file as a Blob read on demand in small pages, and the byte ranges sliced from it. */
function onDemand(): { source: ShareSource; reads: Array<[number, number]> } {
  const reads: Array<[number, number]> = [];
  const blob = new Blob([bytes]);
  const spy = { size: blob.size, slice: (s?: number, e?: number) => (reads.push([s ?? 0, e ?? blob.size]), blob.slice(s, e)) } as unknown as Blob;
  return { source: { ...base, bytes: null, source: fileBytes(spy, { pageBytes: 256, maxPages: 4 }) }, reads };
}

describe("rangeBytes", () => {
  it("reads a batch, a frame and a byte range from the file exactly, and only the 256-byte pages they touch", async () => {
    const b = analysis.batches.at(2)!;
    const f = analysis.batches.firstFrame(1);
    const ranges: Array<[number, number]> = [
      [b.start, b.end],
      [analysis.frames.start[f] as number, frameEnd(analysis.frames, f)],
      [1000, 1003],
    ];
    for (const [start, end] of ranges) {
      const { source, reads } = onDemand();
      expect(await rangeBytes(source, start, end, null)).toEqual(bytes.slice(start, end));
      const pages = { from: Math.floor(start / 256) * 256, to: Math.min(bytes.length, Math.ceil(end / 256) * 256) };
      for (const [s, e] of reads) expect(s >= pages.from && e <= pages.to).toBe(true);
      expect(reads.reduce((n, [s, e]) => n + (e - s), 0)).toBe(pages.to - pages.from);
    }
  });

  it("a redacted batch or frame read on demand is the one cut from the whole redacted copy", async () => {
    const { source, reads } = onDemand();
    const redact = { userHeaders: true, ids: false };
    for (const index of [0, 1, 2, 3]) {
      const b = analysis.batches.at(index)!;
      const part = await rangeBytes(source, b.start, b.end, redact);
      expect(part).toEqual(await rangeBytes(inMemory, b.start, b.end, redact));
      expect(part).not.toEqual(bytes.slice(b.start, b.end));
    }
    const f = analysis.batches.firstFrame(3) + 1;
    const [fs, fe] = [analysis.frames.start[f] as number, frameEnd(analysis.frames, f)];
    expect(await rangeBytes(source, fs, fe, redact)).toEqual(await rangeBytes(inMemory, fs, fe, redact));
    expect(reads.length).toBeGreaterThan(0);
  });

  it("refuses to redact bytes outside every batch, with the reason", async () => {
    const { source } = onDemand();
    await expect(rangeBytes(source, bytes.length + 10, bytes.length + 20, { userHeaders: false, ids: false })).rejects.toThrow(/within batches/);
  });
});
