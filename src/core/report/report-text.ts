/** The plain-text report, for trackers and mail without Markdown: the same content as report.ts, in aligned lines. */
import type { Analysis } from "../model/model.ts";
import { collectReport, helpTextLines, hex, pictureText, type ReportInput, type ReportSource } from "./report-data.ts";
import { visibleText } from "../../lib/text-escape.ts";
import { pushAll } from "../../lib/push-all.ts";

const indent = (text: string, by = "    ") =>
  text
    .split("\n")
    .map((l) => by + l)
    .join("\n");

/** Renders the plain-text report of one analysed input. */
export function renderTextReport(analysis: Analysis, bytes: ReportSource, info: ReportInput): string {
  const data = collectReport(analysis, bytes, info);
  const out: string[] = [visibleText(data.title), "=".repeat(Math.min(72, data.title.length)), ""];
  if (info.redacted)
    out.push(
      `REDACTED COPY: ${visibleText(info.redacted.what)} were replaced and the checksums re-made; the findings are those of the original, SHA-256 ${info.redacted.originalSha256}.`,
      "",
    );
  const width = data.facts.reduce((m, [l]) => Math.max(m, l.length), "share link".length);
  for (const [label, value] of data.facts) out.push(`${label.padEnd(width)}  ${visibleText(value)}`);
  const v = data.verdict;
  if (v.server) out.push(`${"server".padEnd(width)}  ${v.server.words}${v.server.detail ? `: ${visibleText(v.server.detail)}` : ""}`);
  out.push(`${"findings".padEnd(width)}  ${v.findings.words}`);
  if (info.shareLink) out.push(`${"share link".padEnd(width)}  ${visibleText(info.shareLink)}`);
  if (info.image) out.push("", pictureText(info.image));
  out.push("");
  const o = info.opened;
  if (o?.recovery) out.push(`Recovery: ${visibleText(o.recovery.sentence)}`, "");
  if (o?.container && o.container.fields.length > 0) {
    out.push(`Container fields (${o.format}):`);
    for (const f of o.container.fields.slice(0, 64))
      out.push(`  ${visibleText(f.name).padEnd(24)} ${`${hex(f.start)}..${hex(f.end)}`.padEnd(16)} ${visibleText(f.value.slice(0, 80))}`);
    if (o.container.fields.length > 64) out.push(`  ${o.container.fields.length - 64} more fields are left out.`);
    out.push("");
  }
  if (o?.legacy) {
    out.push("Legacy runs:");
    for (const r of o.legacy.runs.slice(0, 50)) out.push(`  * ${visibleText(r.note)}`);
    out.push("");
  }
  if (data.listed.length === 0 && data.notListed === 0) {
    out.push("Diagnostics: none, every check passed.");
    return out.join("\n");
  }
  out.push("Diagnostics:");
  data.listed.forEach((d, i) =>
    out.push(`  ${String(i + 1).padStart(3)}. ${d.severity.padEnd(7)} ${`${hex(d.start)}..${hex(d.end)}`.padEnd(22)} ${d.code}: ${visibleText(d.message)}`),
  );
  if (data.notListed > 0)
    out.push(`  ${data.notListed.toLocaleString("en-US")} more diagnostics are not listed (iggy-batch inspect --json lists every one kept).`);
  out.push("", "Findings by code:");
  for (const c of data.byCode) out.push(`  ${c.code.padEnd(26)} ${c.severity.padEnd(7)} ${String(c.count).padStart(7)}  first at ${hex(c.firstAt)}`);
  for (const b of data.batches) {
    out.push("", `--- ${visibleText(b.title)}`);
    if (b.header.length > 0) for (const [name, offset, value] of b.header) out.push(`  ${name.padEnd(17)} @${String(offset).padEnd(3)} ${value}`);
    for (const n of b.frameNotes) out.push(`  * ${visibleText(n)}`);
    for (const f of b.findings)
      pushAll(
        out,
        [
          "",
          `  ${f.number}. ${f.diagnostic.code} (${f.diagnostic.severity}) at ${hex(f.diagnostic.start)}..${hex(f.diagnostic.end)}: ${visibleText(f.diagnostic.message)}`,
        ],
        helpTextLines(f.diagnostic.code, f.suspect),
        [indent(f.excerpt)],
      );
    if (b.findingsLeftOut > 0) out.push(`  (excerpts of ${b.findingsLeftOut} more findings of this batch left out)`);
  }
  if (data.batchesLeftOut > 0) out.push("", `${data.batchesLeftOut.toLocaleString("en-US")} more affected batches are not shown.`);
  return out.join("\n");
}
