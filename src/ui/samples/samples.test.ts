import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/analyze.ts";
import { DIAGNOSTIC_CODES } from "../../format/diagnostics.ts";
import { SAMPLES, DEFAULT_SAMPLE_ID } from "./samples.ts";
import { TOOL_VERSION } from "../../version.ts";

const xxh = await loadXxh3();

describe("samples menu", () => {
  it("has one sample per diagnostic code plus good ones", () => {
    const shown = SAMPLES.map((s) => s.shows).filter(Boolean).sort();
    expect(shown).toEqual([...DIAGNOSTIC_CODES].sort());
    expect(SAMPLES[0]!.id).toBe(DEFAULT_SAMPLE_ID);
  });

  for (const sample of SAMPLES) {
    it(`${sample.id}: ${sample.shows ? `shows ${sample.shows} and nothing else that is an error` : "decodes clean"}`, () => {
      const a = analyzeWith(xxh, sample.build(xxh));
      const codes = new Set(a.diagnostics.map((d) => d.code));
      if (!sample.shows) expect([...codes]).toEqual([]);
      else {
        expect(codes.has(sample.shows)).toBe(true);
        // Collateral findings are allowed only where the spec makes them unavoidable.
        const collateral = [...codes].filter((c) => c !== sample.shows && !["message-count-mismatch", "batch-checksum-mismatch", "offset-delta-not-index"].includes(c));
        expect(collateral).toEqual([]);
      }
      expect(sample.note.length).toBeGreaterThan(20);
    });
  }
});

describe("version", () => {
  it("matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    expect(TOOL_VERSION).toBe(pkg.version);
  });
});
