import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { annotatedExcerpt, renderMarkdownReport } from "./report.ts";

const xxh = await loadXxh3();
const corpus = (name: string) => new Uint8Array(readFileSync(new URL(`../../../test/fixtures/corpus/${name}`, import.meta.url)));

/** Offsets the caret lines of an xxd excerpt mark, read back from the text. */
function markedOffsets(excerpt: string): number[] {
  const lines = excerpt.split("\n");
  const marked: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith(" ".repeat(10)) || !line.includes("^")) continue;
    const row = parseInt(lines[i - 1]!.slice(0, 8), 16);
    // Byte k of a row sits at column 10 + 2k + floor(k/2), as in xxd.
    for (let k = 0; k < 16; k++) if (line[10 + 2 * k + Math.floor(k / 2)] === "^") marked.push(row + k);
  }
  return marked;
}

describe("markdown report", () => {
  it("marks exactly the batch_checksum bytes of 13-batch-checksum-mismatch", () => {
    const bytes = corpus("13-batch-checksum-mismatch.bin");
    const md = renderMarkdownReport(analyzeWith(xxh, bytes), bytes, { name: "13.bin", sha256: "ab".repeat(32), toolVersion: "9.9.9" });
    const excerpt = md.split("```text\n")[1]!.split("\n```")[0]!;
    expect(markedOffsets(excerpt)).toEqual([40, 41, 42, 43, 44, 45, 46, 47]);
    expect(md).toContain("| tool | iggy-batch-explorer 9.9.9 |");
    expect(md).toContain("| SHA-256 | `" + "ab".repeat(32) + "` |");
    expect(md).toContain("| 1 | error | `batch-checksum-mismatch` | 0x28..0x30 | 0 |");
    expect(md).toContain("| batch_checksum | 40 | b10ee677e084bfed (computed b10ee677e084bfec ✗) |");
  });

  it("marks the two reserved runs of 08-batch-reserved-nonzero in separate excerpts", () => {
    const bytes = corpus("08-batch-reserved-nonzero.bin");
    const md = renderMarkdownReport(analyzeWith(xxh, bytes), bytes, { name: "08.bin", sha256: "0".repeat(64), toolVersion: "0" });
    const excerpts = md
      .split("```text\n")
      .slice(1)
      .map((s) => s.split("\n```")[0]!);
    expect(excerpts.map(markedOffsets)).toEqual([[60, 61, 62], [200]]);
  });

  it("a long range shows its first and last rows and says how many are left out", () => {
    const bytes = new Uint8Array(4096);
    const text = annotatedExcerpt(bytes, 100, 3000);
    expect(text).toMatch(/rows of the range not shown/);
    const offsets = markedOffsets(text);
    expect(offsets[0]).toBe(100);
    expect(offsets.at(-1)).toBe(2999);
  });

  it("a clean input says every check passed", () => {
    const bytes = corpus("01-valid-producer-1frame.bin");
    const md = renderMarkdownReport(analyzeWith(xxh, bytes), bytes, { name: "01.bin", sha256: "0".repeat(64), toolVersion: "0" });
    expect(md).toContain("None: every check passed.");
    expect(md).not.toContain("## Findings");
  });
});

describe("markdown report of hostile input", () => {
  it("an excerpt whose bytes hold backticks and HTML stays inside a longer fence", async () => {
    const { encodeBatch } = await import("../walk/encode.ts");
    // Malformed user headers give a finding whose excerpt shows the payload's last bytes beside them.
    const bytes = encodeBatch(xxh, { messages: [{ payload: "<img src=x onerror=alert(1)>``````", userHeaders: new Uint8Array([0xff]) }] });
    const analysis = analyzeWith(xxh, bytes);
    expect(analysis.diagnostics.map((d) => d.code)).toContain("user-headers-malformed");
    const md = renderMarkdownReport(analysis, bytes, { name: "a.bin", sha256: "0".repeat(64), toolVersion: "0" });
    const fenced = /^(`{3,})text\n([\s\S]*?)\n\1$/m.exec(md);
    expect(fenced).not.toBeNull();
    const [, fence, body] = fenced!;
    const longestRun = Math.max(...(body!.match(/`+/g) ?? [""]).map((r) => r.length));
    expect(longestRun).toBeGreaterThanOrEqual(4);
    expect(fence!.length).toBeGreaterThan(longestRun);
    // Outside the fences, no raw HTML from the input.
    expect(md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, "")).not.toContain("<img");
  });
});
