/** A report of an input read on demand: made from only the ranges it quotes, it is the report of the whole input in memory, word for word. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../walk/analyze.ts";
import { renderMarkdownReport } from "./report.ts";
import { renderTextReport } from "./report-text.ts";
import { renderFromRanges, type ReportInput } from "./report-data.ts";
import { fileBytes } from "../../lib/input-bytes.ts";
import { xxh } from "../../../test/helpers.ts";

const DIR = new URL("../../../test/fixtures/corpus/", import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".bin"));
const info: ReportInput = { name: "x.bin", sha256: "ab".repeat(32), toolVersion: "9.9.9" };

describe("renderFromRanges", () => {
  it.each(FILES)("%s: the Markdown and text reports from ranges are the whole input's", async (name) => {
    const bytes = new Uint8Array(readFileSync(new URL(name, DIR)));
    const analysis = analyzeWith(xxh, bytes);
    let read = 0;
    const source = fileBytes(new Blob([bytes]), { pageBytes: 64, maxPages: 2 });
    const load = (s: number, e: number) => {
      read += e - s;
      return source.load(s, e);
    };
    expect(await renderFromRanges(bytes.length, load, (r) => renderMarkdownReport(analysis, r, info))).toBe(renderMarkdownReport(analysis, bytes, info));
    expect(await renderFromRanges(bytes.length, load, (r) => renderTextReport(analysis, r, info))).toBe(renderTextReport(analysis, bytes, info));
    // A clean input quotes no bytes at all.
    if (analysis.diagnostics.length === 0) expect(read).toBe(0);
  });

  it("reads only the quoted ranges: a report limited to one excerpt of a 4-batch segment reads under a tenth of it", async () => {
    const bytes = new Uint8Array(readFileSync(new URL("19-segment-4-batch2-bad-frame.bin", DIR)));
    const analysis = analyzeWith(xxh, bytes);
    let read = 0;
    const load = (s: number, e: number) => {
      read += e - s;
      return fileBytes(new Blob([bytes])).load(s, e);
    };
    const limited = { ...info, maxExcerpts: 1 };
    expect(await renderFromRanges(bytes.length, load, (r) => renderMarkdownReport(analysis, r, limited))).toBe(renderMarkdownReport(analysis, bytes, limited));
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(bytes.length / 10);
  });
});
