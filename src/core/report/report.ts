/**
 * The GitHub-flavoured Markdown report for a bug tracker: a facts table, counts by code, the
 * diagnostics, and a collapsed section per affected batch with its header, the frames' payload
 * previews and an xxd excerpt with carets per finding. Every input-derived string goes through
 * markdown.ts, so no HTML, link or table break from the input reaches the tracker.
 */
import type { Analysis } from "../model/model.ts";
import { collectReport, helpMarkdown, hex, pictureMarkdown, type ReportInput, type ReportSource } from "./report-data.ts";
import { mdFence, mdText, mdUrl } from "./markdown.ts";
import { pushAll } from "../../lib/push-all.ts";

export { annotatedExcerpt, type ReportInput } from "./report-data.ts";

// Our own text in a table cell: only `|` and line breaks could break the table.
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// The container's recovery verdict, fields and legacy runs; their values come from the input, so they are escaped.
function containerSection(o: NonNullable<ReportInput["opened"]>): string[] {
  const out: string[] = [];
  if (o.recovery) out.push("## Recovery", "", mdText(o.recovery.sentence), "");
  const fields = o.container?.fields ?? [];
  if (fields.length > 0) {
    const shown = fields.slice(0, 64);
    out.push(`## Container fields (${o.format})`, "", "| field | bytes | value |", "|---|---|---|");
    for (const f of shown)
      out.push(`| ${mdText(f.name)} | ${hex(f.start)}..${hex(f.end)} | ${mdText(f.value.length > 80 ? f.value.slice(0, 77) + "…" : f.value)} |`);
    if (fields.length > shown.length) out.push("", `${fields.length - shown.length} more fields are left out.`);
    out.push("");
  }
  if (o.legacy) {
    out.push("## Legacy runs", "");
    for (const r of o.legacy.runs.slice(0, 50)) out.push(`- ${mdText(r.note)}`);
    out.push("");
  }
  return out;
}

/** Renders the Markdown report of one analysed input. */
export function renderMarkdownReport(analysis: Analysis, bytes: ReportSource, info: ReportInput): string {
  const data = collectReport(analysis, bytes, info);
  const out: string[] = [];
  out.push(`# Iggy batch report: ${mdText(info.name)}`, "");
  if (info.redacted) {
    out.push(
      `> **Redacted copy.** ${mdText(capitalized(info.redacted.what))} were replaced and the checksums re-made, so the findings below are exactly those of the original, SHA-256 \`${info.redacted.originalSha256}\`.`,
      "",
    );
  }
  out.push("| | |", "|---|---|");
  for (const [label, value, fromInput] of data.facts) {
    // A SHA-256 in code; "redacted copy of" may come from a share link, so its words are escaped too.
    const sha = label === "SHA-256" || label === "redacted copy of" ? /^([0-9a-f]{64})(.*)$/.exec(value) : null;
    const shown = sha
      ? `\`${sha[1]}\`${mdText(sha[2] ?? "")}`
      : fromInput
        ? mdText(value)
        : label === "format"
          ? cell(value).replace(/\((\S+)\)$/, "(`$1`)")
          : cell(value);
    out.push(`| ${label} | ${shown} |`);
  }
  const v = data.verdict;
  if (v.server) out.push(`| server | **${v.server.words}**${v.server.detail ? `: ${mdText(v.server.detail)}` : ""} |`);
  out.push(`| findings | ${v.findings.clean ? "clean" : `**${v.findings.words}**`} |`);
  if (info.shareLink) out.push(`| share link | [open in Iggy Batch Explorer](${mdUrl(info.shareLink)}) |`);
  out.push("");
  if (info.image) pushAll(out, pictureMarkdown(info.image));

  if (info.opened) for (const line of containerSection(info.opened)) out.push(line);
  out.push("## Diagnostics", "");
  if (data.listed.length === 0 && data.notListed === 0) {
    out.push("None: every check passed.", "");
    return out.join("\n");
  }
  out.push("| # | severity | code | bytes | batch | frame | message |", "|---:|---|---|---|---:|---:|---|");
  data.listed.forEach((d, i) =>
    out.push(`| ${i + 1} | ${d.severity} | \`${d.code}\` | ${hex(d.start)}..${hex(d.end)} | ${d.batch ?? ""} | ${d.frame ?? ""} | ${mdText(d.message)} |`),
  );
  if (data.notListed > 0)
    out.push("", `${data.notListed.toLocaleString("en-US")} more diagnostics are not listed (\`iggy-batch inspect --json\` lists every one kept).`);
  out.push("");

  out.push("## Findings by code", "", "| code | severity | count | first at |", "|---|---|---:|---|");
  for (const c of data.byCode) out.push(`| \`${c.code}\` | ${c.severity} | ${c.count.toLocaleString("en-US")} | ${hex(c.firstAt)} |`);
  out.push("");

  out.push("## Affected batches", "");
  for (const b of data.batches) {
    // The summary line is our own text only: inside an HTML block, Markdown escapes would not apply.
    out.push("<details>", `<summary>${b.title.replace(/[<>&]/g, "")}</summary>`, "");
    if (b.header.length > 0) {
      out.push("| field | offset | value |", "|---|---:|---|");
      for (const [name, offset, value] of b.header) out.push(`| ${name} | ${offset} | ${cell(value)} |`);
      out.push("");
    }
    if (b.frameNotes.length > 0) {
      for (const n of b.frameNotes) out.push(`- ${mdText(n)}`);
      out.push("");
    }
    for (const f of b.findings) {
      const d = f.diagnostic;
      pushAll(
        out,
        [`#### ${f.number}. \`${d.code}\` (${d.severity}) at ${hex(d.start)}..${hex(d.end)}`, "", mdText(d.message), ""],
        helpMarkdown(d.code, f.suspect, mdText),
        ["", mdFence(f.excerpt), ""],
      );
    }
    if (b.findingsLeftOut > 0) out.push(`Excerpts of ${b.findingsLeftOut} more findings of this batch are left out.`, "");
    out.push("</details>", "");
  }
  if (data.batchesLeftOut > 0) out.push(`${data.batchesLeftOut.toLocaleString("en-US")} more affected batches are not shown.`, "");
  return out.join("\n");
}
