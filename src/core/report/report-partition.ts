/**
 * The report of a whole partition (Markdown and plain text): it leads with the partition's verdict on
 * both axes, lists every segment with its index and what recovery keeps, every skipped file, and every
 * finding with its file, its help and the bytes it is about. Reads only the ranges it quotes, per file.
 */
import type { Diagnostic } from "../../format/diagnostics.ts";
import { hexOffset, plural } from "../../format/values.ts";
import type { PartitionResult } from "../containers/partition.ts";
import { mdFence, mdText, mdUrl } from "./markdown.ts";
import { visibleText } from "../../lib/text-escape.ts";
import { annotatedExcerpt, helpMarkdown, helpTextLines, pictureMarkdown, pictureText, type ReportSource } from "./report-data.ts";
import { summarySentence } from "./summary-text.ts";
import { findingsVerdict, verdictOf, type Verdict } from "../containers/verdict.ts";
import { pushAll } from "../../lib/push-all.ts";

/** What the host knows about the partition besides its result. */
export interface PartitionReportInput {
  /** The directory's name as the user gave it. */
  readonly name: string;
  readonly toolVersion: string;
  readonly result: PartitionResult;
  /** The bytes of one file of the partition (by its name in the result), or null when it cannot be read again. */
  readonly fileBytes: (file: string) => ReportSource | null;
  /** Excerpts quoted at most. Default 50. */
  readonly maxExcerpts?: number;
  /** Findings listed at most. Default 200. */
  readonly maxListed?: number;
  /** A share link (of the file and bytes the first finding needs), with what it carries. */
  readonly shareLink?: { readonly url: string; readonly carries: string };
  /** A picture file to attach beside the report, and what it shows. */
  readonly image?: { readonly src: string; readonly caption: string };
}

type Finding = Diagnostic & { readonly file: string };

interface Collected {
  readonly verdict: Verdict;
  readonly facts: Array<[string, string]>;
  readonly listed: Finding[];
  readonly notListed: number;
  readonly excerpts: Array<{ readonly number: number; readonly finding: Finding; readonly excerpt: string | null }>;
}

const hex = (n: number) => hexOffset(n, 0);
const range = (d: Diagnostic) => `${hex(d.start)}..${hex(d.end)}`;

function collect(input: PartitionReportInput): Collected {
  const r = input.result;
  const verdict = verdictOf(r.summary, r.outcome);
  const bytes = r.files.reduce((n, f) => n + f.size, 0);
  const facts: Array<[string, string]> = [
    ["tool", `iggy-batch-explorer ${input.toolVersion}`],
    ["input", `${input.name} (partition directory: ${r.files.length} files, ${bytes} bytes)`],
    ["summary", summarySentence(r.summary)],
  ];
  const maxListed = input.maxListed ?? 200;
  const listed = r.diagnostics.slice(0, maxListed);
  let left = input.maxExcerpts ?? 50;
  const sources = new Map<string, ReportSource | null>();
  const excerpts = listed.map((finding, i) => {
    if (left <= 0 || finding.end < finding.start || finding.file === ".") return { number: i + 1, finding, excerpt: null };
    if (!sources.has(finding.file)) sources.set(finding.file, input.fileBytes(finding.file));
    const source = sources.get(finding.file);
    if (!source) return { number: i + 1, finding, excerpt: null };
    left--;
    return { number: i + 1, finding, excerpt: annotatedExcerpt(source, finding.start, finding.end) };
  });
  // Counted from the summary, which counts every finding: a page's list keeps each file's first ones, the CLI's the capped ones.
  const found = r.summary.errors + r.summary.warnings + r.summary.infos;
  return { verdict, facts, listed, notListed: Math.max(0, found - listed.length), excerpts };
}

const recoveryCell = (s: PartitionResult["segments"][number]) =>
  s.recovery.keptBytes === s.size
    ? `all ${s.size} bytes`
    : `${s.recovery.keptBytes} of ${s.size} bytes (stops at ${hex(s.recovery.stopsAt ?? s.recovery.keptBytes)})`;
const countsCell = (s: { errors: number; warnings: number; infos: number }) =>
  s.errors === 0 && s.warnings === 0 ? `clean${s.infos ? `, ${plural(s.infos, "info")}` : ""}` : findingsVerdict(s).words;
const offsets = (s: PartitionResult["segments"][number]) => (s.firstOffset === null ? "empty" : `${s.firstOffset}..${s.lastOffset ?? "?"}`);

/** The Markdown report of a partition. */
export function renderPartitionMarkdown(input: PartitionReportInput): string {
  const r = input.result;
  const c = collect(input);
  const v = c.verdict;
  const out: string[] = [`# Iggy partition report: ${mdText(input.name)}`, ""];
  out.push(`**Server:** ${v.server ? mdText(v.server.sentence) : "no server outcome"} **Findings:** ${v.findings.clean ? "clean" : v.findings.words}.`, "");
  out.push("| | |", "|---|---|");
  for (const [label, value] of c.facts) out.push(`| ${label} | ${mdText(value)} |`);
  if (v.server) out.push(`| server | **${v.server.words}**${v.server.detail ? `: ${mdText(v.server.detail)}` : ""} |`);
  out.push(`| findings | ${v.findings.clean ? "clean" : `**${v.findings.words}**`} |`);
  if (input.shareLink) out.push(`| share link | [open in Iggy Batch Explorer](${mdUrl(input.shareLink.url)}) (${mdText(input.shareLink.carries)}) |`);
  out.push("");
  if (input.image) pushAll(out, pictureMarkdown(input.image));

  out.push("## Segments", "");
  if (r.segments.length === 0) out.push("None: the directory holds no segment.", "");
  else {
    out.push("| segment | index | bytes | offsets | recovery keeps | findings (segment + index) |", "|---|---|---:|---|---|---|");
    for (const s of r.segments)
      out.push(`| ${mdText(s.name)} | ${s.indexName ? mdText(s.indexName) : "none"} | ${s.size} | ${offsets(s)} | ${recoveryCell(s)} | ${countsCell(s)} |`);
    out.push("");
  }
  const others = r.files.filter((f) => f.skipped || (f.format === "index" && !r.segments.some((s) => s.indexName === f.name)));
  if (others.length > 0) {
    out.push("## Other files", "", "| file | bytes | why |", "|---|---:|---|");
    for (const f of others) out.push(`| ${mdText(f.name)} | ${f.size} | ${mdText(f.skipped ?? "an .index without its .log (deleted at boot)")} |`);
    out.push("");
  }

  out.push("## Findings", "");
  if (c.listed.length === 0) {
    out.push("None: every check passed.", "");
    return out.join("\n");
  }
  out.push("| # | file | severity | code | bytes | message |", "|---:|---|---|---|---|---|");
  c.listed.forEach((d, i) => out.push(`| ${i + 1} | ${mdText(d.file)} | ${d.severity} | \`${d.code}\` | ${range(d)} | ${mdText(d.message)} |`));
  if (c.notListed > 0)
    out.push("", `${c.notListed.toLocaleString("en-US")} more findings are not listed (\`iggy-batch inspect DIR --json\` lists every one kept).`);
  out.push("");
  for (const e of c.excerpts) {
    const d = e.finding;
    pushAll(
      out,
      [`### ${e.number}. \`${d.code}\` (${d.severity}) in ${mdText(d.file)} at ${range(d)}`, "", mdText(d.message), ""],
      helpMarkdown(d.code, null, mdText),
      [""],
    );
    if (e.excerpt !== null) out.push(mdFence(e.excerpt), "");
  }
  return out.join("\n");
}

/** The plain-text report of a partition: the same content in aligned lines. */
export function renderPartitionText(input: PartitionReportInput): string {
  const r = input.result;
  const c = collect(input);
  const v = c.verdict;
  const title = `Iggy partition report: ${visibleText(input.name)}`;
  const out: string[] = [title, "=".repeat(Math.min(72, title.length)), ""];
  out.push(`Server:   ${v.server ? visibleText(v.server.sentence) : "no server outcome"}`, `Findings: ${v.findings.words}`, "");
  const width = c.facts.reduce((w, [l]) => Math.max(w, l.length), "share link".length);
  for (const [label, value] of c.facts) out.push(`${label.padEnd(width)}  ${visibleText(value)}`);
  if (input.shareLink) out.push(`${"share link".padEnd(width)}  ${visibleText(input.shareLink.url)} (${input.shareLink.carries})`);
  if (input.image) out.push("", pictureText(input.image));
  out.push("", "Segments:");
  if (r.segments.length === 0) out.push("  none: the directory holds no segment");
  for (const s of r.segments)
    out.push(
      `  ${visibleText(s.name)}  ${s.indexName ? `+ ${visibleText(s.indexName)}` : "no index"}  ${s.size} bytes  offsets ${offsets(s)}  recovery keeps ${recoveryCell(s)}  ${countsCell(s)}`,
    );
  for (const f of r.files.filter((x) => x.skipped)) out.push(`  skipped ${visibleText(f.name)}: ${visibleText(f.skipped ?? "")}`);
  out.push("");
  if (c.listed.length === 0) {
    out.push("Findings: none, every check passed.");
    return out.join("\n");
  }
  out.push("Findings:");
  c.listed.forEach((d, i) =>
    out.push(`  ${String(i + 1).padStart(3)}. ${d.severity.padEnd(7)} ${visibleText(d.file)} ${range(d).padEnd(22)} ${d.code}: ${visibleText(d.message)}`),
  );
  if (c.notListed > 0) out.push(`  ${c.notListed.toLocaleString("en-US")} more findings are not listed (iggy-batch inspect DIR --json lists every one kept).`);
  for (const e of c.excerpts) {
    const d = e.finding;
    pushAll(
      out,
      ["", `  ${e.number}. ${d.code} (${d.severity}) in ${visibleText(d.file)} at ${range(d)}: ${visibleText(d.message)}`],
      helpTextLines(d.code, null),
    );
    if (e.excerpt !== null)
      pushAll(
        out,
        e.excerpt.split("\n").map((l) => "    " + l),
      );
  }
  return out.join("\n");
}
