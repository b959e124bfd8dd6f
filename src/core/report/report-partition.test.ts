/** The partition report on the corpus partitions: its verdict first, every segment, every finding with its file and bytes. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listedPerFile, openPartition, type PartitionSource } from "../containers/index.ts";
import { renderPartitionMarkdown, renderPartitionText, type PartitionReportInput } from "./report-partition.ts";
import { renderMarkdownReport } from "./report.ts";
import { renderTextReport } from "./report-text.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { xxh } from "../../../test/helpers.ts";

const PARTITIONS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions");

async function reportInput(dir: string): Promise<PartitionReportInput> {
  const at = path.join(PARTITIONS, dir);
  const read = (name: string) => new Uint8Array(readFileSync(path.join(at, name)));
  const sources: PartitionSource[] = readdirSync(at).map((name) => ({
    name,
    size: statSync(path.join(at, name)).size,
    read: () => Promise.resolve(read(name)),
  }));
  return { name: dir, toolVersion: "test", result: await openPartition(sources), fileBytes: read };
}

describe("partition report", () => {
  it("chain-gap: leads with the refusal, lists both segments and the gap finding in its file with its bytes", async () => {
    const input = await reportInput("chain-gap");
    const md = renderPartitionMarkdown(input);
    const lines = md.split("\n");
    expect(lines[2]).toMatch(/^\*\*Server:\*\* The server refuses it at boot: .*gap of 2.* \*\*Findings:\*\* 1 error, 0 warnings\.$/);
    expect(md).not.toMatch(/\| verdict \| ok|every check passed/);
    for (const s of input.result.segments) expect(md).toContain(`| ${s.name} | ${s.indexName} | ${s.size} |`);
    const gap = input.result.diagnostics.find((d) => d.code === "partition-chain-gap")!;
    expect(md).toContain(`| 1 | ${gap.file} | error | \`partition-chain-gap\` | 0x${gap.start.toString(16)}..0x${gap.end.toString(16)} |`);
    expect(md).toContain(`### 1. \`partition-chain-gap\` (error) in ${gap.file}`);
    // The quoted bytes: an xxd row of that file, carets under the base_offset field.
    const excerpt = md.split("```text\n")[1]!.split("\n```")[0]!;
    const row = readFileSync(path.join(PARTITIONS, "chain-gap", gap.file)).subarray(0, 16);
    expect(excerpt.split("\n")[0]).toContain([...row.subarray(0, 2)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    expect(excerpt).toMatch(/\^\^/);
    expect(md).toContain("ensure_contiguous_chain");
  });

  it("torn-tail: both axes in the text report, the torn bytes counted, no FAIL beside a load", async () => {
    const input = await reportInput("torn-tail");
    const text = renderPartitionText(input);
    const torn = input.result.outcome.truncatedBytes;
    expect(text).toMatch(new RegExp(`^Server: {3}The server truncates ${torn} bytes at boot: `, "m"));
    expect(text).toMatch(/^Findings: 1 error, 0 warnings$/m);
    expect(text).not.toMatch(/FAIL|would load/);
    for (const d of input.result.diagnostics) expect(text).toContain(`${d.code}: ${d.message}`);
  });

  it("a directory without segments says so", async () => {
    const md = renderPartitionMarkdown({ name: "empty", toolVersion: "t", result: await openPartition([]), fileBytes: () => null });
    expect(md).toContain("None: the directory holds no segment.");
    expect(md).toContain("`partition-no-segments`");
  });
});

describe("a report's picture", () => {
  it("is a file to attach, in the same sentence in a file's report and a partition's, Markdown and text", async () => {
    const image = { src: "gap_1.svg", caption: "the gap" };
    const input = await reportInput("chain-gap");
    const log = input.result.segments[0]!.name;
    const bytes = new Uint8Array(readFileSync(path.join(PARTITIONS, "chain-gap", log)));
    const file = { name: log, sha256: "ab".repeat(32), toolVersion: "t", image };
    const sentence = "The picture is a file: attach gap_1.svg to the issue beside this report";
    const mdSentence = "The picture is a file: attach gap\\_1.svg to the issue beside this report";
    const reports = {
      fileMarkdown: renderMarkdownReport(analyzeWith(xxh, bytes), bytes, file),
      partitionMarkdown: renderPartitionMarkdown({ ...input, image }),
      fileText: renderTextReport(analyzeWith(xxh, bytes), bytes, file),
      partitionText: renderPartitionText({ ...input, image }),
    };
    expect(reports.fileMarkdown).toContain(mdSentence);
    expect(reports.partitionMarkdown).toContain(mdSentence);
    expect(reports.fileText).toContain(sentence);
    expect(reports.partitionText).toContain(sentence);
    const line = (s: string, start: string) => s.split("\n").find((l) => l.startsWith(start));
    expect(line(reports.fileMarkdown, "The picture")).toBe(line(reports.partitionMarkdown, "The picture"));
    expect(line(reports.fileText, "The picture")).toBe(line(reports.partitionText, "The picture"));
  });

  it("counts every finding not listed, the ones a page's list left out too (listedPerFile)", async () => {
    const input = await reportInput("index-faults");
    const found = input.result.summary.errors + input.result.summary.warnings + input.result.summary.infos;
    expect(found).toBeGreaterThan(1);
    const trimmed = { ...input, result: listedPerFile(input.result, 1), maxListed: 1 };
    expect(renderPartitionMarkdown(trimmed)).toContain(`${found - 1} more findings are not listed`);
    expect(renderPartitionText(trimmed)).toContain(`${found - 1} more findings are not listed`);
  });
});
