import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { CAPTURE_DIAGNOSTIC_CODES, DIAGNOSTIC_CODES } from "../../format/diagnostics.ts";
import { SAMPLES, DEFAULT_SAMPLE_ID } from "./samples.ts";
import { CONTAINER_SAMPLES } from "./container-samples.ts";
import { TOOL_VERSION } from "../../version.ts";
import { envelopeById } from "../model/envelopes.ts";

const xxh = await loadXxh3();

describe("samples menu", () => {
  it("has one sample per batch diagnostic code plus good ones (container codes: core/samples/container-samples.ts)", () => {
    const shown = SAMPLES.map((s) => s.shows)
      .filter(Boolean)
      .sort();
    const containerCodes = new Set(CONTAINER_SAMPLES.map((s) => s.shows));
    expect(shown).toEqual(DIAGNOSTIC_CODES.filter((c) => !containerCodes.has(c) && !CAPTURE_DIAGNOSTIC_CODES.includes(c)).sort());
    expect(SAMPLES[0]!.id).toBe(DEFAULT_SAMPLE_ID);
  });

  for (const sample of SAMPLES) {
    it(`${sample.id}: ${sample.shows ? `shows ${sample.shows} and nothing else that is an error` : "decodes clean"}`, () => {
      const a = analyzeWith(xxh, sample.build(xxh), { startOffset: envelopeById(sample.envelope ?? "none")?.skip ?? 0 });
      const codes = new Set(a.diagnostics.map((d) => d.code));
      if (!sample.shows) expect([...codes]).toEqual([]);
      else {
        expect(codes.has(sample.shows)).toBe(true);
        // Collateral findings are allowed only where the spec makes them unavoidable.
        const collateral = [...codes].filter(
          (c) => c !== sample.shows && !["message-count-mismatch", "batch-checksum-mismatch", "offset-delta-not-index"].includes(c),
        );
        expect(collateral).toEqual([]);
      }
      expect(sample.note.length).toBeGreaterThan(20);
    });
  }
});

describe("envelope samples", () => {
  it("a poll reply read without its envelope is garbage, with it the same batches as plain", () => {
    const sample = SAMPLES.find((s) => s.id === "poll-reply")!;
    const bytes = sample.build(xxh);
    expect(analyzeWith(xxh, bytes).summary.errors).toBeGreaterThan(0);
    const a = analyzeWith(xxh, bytes, { startOffset: 16 });
    expect(a.summary).toEqual({ batches: 2, frames: 3, errors: 0, warnings: 0, infos: 0 });
    expect(a.batches.start(0)).toBe(16);
    const plain = analyzeWith(xxh, bytes.subarray(16));
    expect(a.batches.map((b) => b.header)).toEqual(plain.batches.map((b) => b.header));
  });
});

describe("version", () => {
  it("matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    expect(TOOL_VERSION).toBe(pkg.version);
  });
});
