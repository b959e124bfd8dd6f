import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analysisFromWire, analysisToWire, packBatches, packedBatchBuffers, unpackBatches } from "./batch-wire.ts";
import { CORPUS, reference, SAMPLE_BYTES } from "./walk-compare.test-util.ts";
import { analyzeWith } from "./analyze.ts";

const corpus = readdirSync(CORPUS)
  .filter((n) => n.endsWith(".bin"))
  .map((n) => new Uint8Array(readFileSync(new URL(n, CORPUS))));

describe("batches on the wire", () => {
  it("come back equal to analyze()'s for every sample and corpus file, through a real structured clone", () => {
    let truncated = 0;
    let headerless = 0;
    for (const bytes of [...SAMPLE_BYTES, ...corpus]) {
      const a = analyzeWith(reference, bytes);
      truncated += a.batches.filter((b) => b.truncatedFrame).length;
      headerless += a.batches.filter((b) => !b.header || b.computedChecksum === null).length;
      const wire = analysisToWire(a);
      const crossed = structuredClone(wire, { transfer: packedBatchBuffers(wire.batches) });
      expect(analysisFromWire(crossed)).toEqual(a);
    }
    // The odd batches were there to be packed: cut-off frames, and headers too short or too small to check.
    expect(truncated).toBeGreaterThan(0);
    expect(headerless).toBeGreaterThan(0);
  });

  it("keep a batch header's values exactly, u64 past 2^53 included", () => {
    const a = analyzeWith(reference, SAMPLE_BYTES[0]!);
    const big = a.batches.map((b) => ({
      ...b,
      header: b.header && { ...b.header, baseOffset: 2n ** 64n - 1n, baseTimestamp: 2n ** 53n + 1n },
      computedChecksum: 2n ** 63n + 5n,
    }));
    expect(unpackBatches(packBatches(big))).toEqual(big);
  });
});
