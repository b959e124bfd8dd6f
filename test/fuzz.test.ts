/**
 * The decoder fuzzer in the unit suite: a fixed seed, a few thousand mutated corpus inputs through
 * analyze(), each checked against core/walk/analysis-invariants.ts (no throw, ranges in bounds, batches and
 * frames tiling, counts consistent). `npm run fuzz -- --count N` runs the same loop for longer.
 */
import { describe, expect, it } from "vitest";
import { batchTableOf } from "../src/core/model/batch-table-build.ts";
import { analyzeWith } from "../src/core/walk/analyze.ts";
import { analysisViolations } from "../src/core/walk/analysis-invariants.ts";
import type { Analysis } from "../src/core/model/model.ts";
import { loadCorpus, Mutator } from "./fuzz-inputs.ts";
import { producerBatch, xxh } from "./helpers.ts";

const corpus = loadCorpus();

describe("analysis invariants", () => {
  it("hold on every corpus file as it is", () => {
    expect(corpus.length).toBeGreaterThan(20);
    for (const bytes of corpus) expect(analysisViolations(analyzeWith(xxh, bytes), bytes.length)).toEqual([]);
  });

  it("catch a model that breaks them (the checker is not vacuous)", () => {
    const bytes = producerBatch(3);
    const a = analyzeWith(xxh, bytes);
    const broken: Analysis = {
      ...a,
      diagnostics: [
        { ...(a.diagnostics[0] ?? { code: "empty-batch", severity: "warning", batch: 0, frame: null, message: "" }), start: 5, end: bytes.length + 1 },
      ],
    };
    expect(analysisViolations(broken, bytes.length).join("\n")).toMatch(/outside 0\.\./);
    const shifted: Analysis = { ...a, batches: batchTableOf(a.batches.map((b) => ({ ...b, start: b.start + 1 }))) };
    expect(analysisViolations(shifted, bytes.length).join("\n")).toMatch(/batch 0 starts at 1, expected 0/);
    const miscounted: Analysis = { ...a, summary: { ...a.summary, frames: a.summary.frames + 1 } };
    expect(analysisViolations(miscounted, bytes.length).join("\n")).toMatch(/summary frames/);
  });
});

describe("fuzz: mutated corpus inputs through analyze()", () => {
  it("60,000 inputs (seed 10): no throw, no broken invariant", () => {
    const mutator = new Mutator(corpus, 10);
    const failures: string[] = [];
    let withFindings = 0;
    for (let i = 0; i < 60_000; i++) {
      const { bytes, startOffset } = mutator.next();
      try {
        const a = analyzeWith(xxh, bytes, { startOffset });
        if (a.diagnostics.length > 0) withFindings++;
        const v = analysisViolations(a, bytes.length, startOffset);
        if (v.length) failures.push(`case ${i} (${bytes.length} B from ${startOffset}): ${v.join("; ")}`);
      } catch (err) {
        failures.push(`case ${i} (${bytes.length} B from ${startOffset}) threw: ${(err as Error).stack ?? String(err)}`);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    // The mutations do reach the decoder's error paths (most inputs are damaged).
    expect(withFindings).toBeGreaterThan(45_000);
  });
});
