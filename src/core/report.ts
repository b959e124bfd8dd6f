/** A Markdown report for a bug tracker: input facts, a diagnostics table, an annotated hex excerpt per finding, and the affected batches' headers. */
import { BATCH_HEADER_FIELDS } from "../format/fields.ts";
import { hex64, hexOffset, microsToIso, plural } from "../format/values.ts";
import { toXxd } from "../lib/byte-formats.ts";
import type { Analysis, BatchModel } from "./model.ts";
import { summarySentence } from "./summary-text.ts";
import { FORMAT_TITLES, type OpenedInput } from "./containers/types.ts";

/** What the host knows about the input that the analysis does not. */
export interface ReportInput {
  readonly name: string;
  /** Lowercase hex SHA-256 of the input. */
  readonly sha256: string;
  readonly toolVersion: string;
  /** The envelope the capture starts with, when it has one (e.g. "Poll reply (16 B)"). */
  readonly envelope?: string;
  /** The container the input was opened as (core/containers): its format, why, fields and recovery verdict. */
  readonly opened?: Pick<OpenedInput, "format" | "detectedBy" | "container" | "recovery" | "entries" | "legacy">;
  /** Excerpts written at most; the table lists every kept diagnostic. Default 50. */
  readonly maxExcerpts?: number;
}

const hex = (n: number) => hexOffset(n, 0);
// Markdown table cells must not break the table.
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** The xxd excerpt around [start, end) with the offending bytes marked; long ranges show their first and last rows. */
export function annotatedExcerpt(bytes: Uint8Array, start: number, end: number, context = 1): string {
  const markEnd = Math.max(end, start + 1);
  const rowOf = (o: number) => o - (o % 16);
  const from = Math.max(0, rowOf(start) - 16 * context);
  const to = Math.min(bytes.length, rowOf(Math.min(markEnd, bytes.length) - 1) + 16 * (context + 1));
  const rows = (to - from) / 16;
  if (rows <= 12) return toXxd(bytes.subarray(from, to), from, { start, end: markEnd });
  const headEnd = Math.min(bytes.length, rowOf(start) + 16 * 4);
  const tailStart = Math.max(headEnd, rowOf(Math.min(markEnd, bytes.length) - 1) - 16);
  return [
    toXxd(bytes.subarray(from, headEnd), from, { start, end: markEnd }),
    `          … ${((tailStart - headEnd) / 16).toLocaleString("en-US")} rows of the range not shown …`,
    toXxd(bytes.subarray(tailStart, to), tailStart, { start, end: markEnd }),
  ].join("\n");
}

function headerTable(b: BatchModel): string[] {
  const h = b.header;
  if (!h) return [`Batch ${b.index} at ${hex(b.start)}: incomplete header (${b.end - b.start} bytes).`];
  const values: Record<string, string> = {
    partition_id: h.partitionId.toString(),
    base_offset: h.baseOffset.toString(),
    base_timestamp: `${h.baseTimestamp} (${h.baseTimestamp === 0n ? "producer: 0" : microsToIso(h.baseTimestamp) ?? "out of range"})`,
    origin_timestamp: `${h.originTimestamp} (${microsToIso(h.originTimestamp) ?? "out of range"})`,
    batch_length: h.batchLength.toString(),
    batch_checksum: `${hex64(h.batchChecksum)} (computed ${b.computedChecksum === null ? "n/a" : hex64(b.computedChecksum)}${b.computedChecksum === h.batchChecksum ? " ✓" : b.computedChecksum === null ? "" : " ✗"})`,
    message_count: String(h.messageCount),
    reserved: "204 bytes",
  };
  return [
    `Batch ${b.index} at ${hex(b.start)}..${hex(b.end)}, ${b.stamped ? "stamped" : "producer"}, ${plural(b.frameCount, "complete frame", "complete frames")}:`,
    "",
    "| field | offset | value |",
    "|---|---:|---|",
    ...BATCH_HEADER_FIELDS.map((f) => `| ${f.name} | ${f.offset} | ${cell(values[f.name] ?? "")} |`),
  ];
}

function containerSection(o: NonNullable<ReportInput["opened"]>): string[] {
  const out: string[] = [];
  if (o.recovery) out.push("## Recovery", "", o.recovery.sentence, "");
  const fields = o.container?.fields ?? [];
  if (fields.length > 0) {
    const shown = fields.slice(0, 64);
    out.push(`## Container fields (${o.format})`, "", "| field | bytes | value |", "|---|---|---|",
      ...shown.map((f) => `| ${cell(f.name)} | ${hex(f.start)}..${hex(f.end)} | ${cell(f.value.length > 80 ? f.value.slice(0, 77) + "…" : f.value)} |`));
    if (fields.length > shown.length) out.push("", `${fields.length - shown.length} more fields are left out.`);
    out.push("");
  }
  if (o.legacy) out.push("## Legacy runs", "", ...o.legacy.runs.slice(0, 50).map((r) => `- ${cell(r.note)}`), "");
  return out;
}

/** Renders the Markdown report of one analysed input. */
export function renderMarkdownReport(analysis: Analysis, bytes: Uint8Array, info: ReportInput): string {
  const maxExcerpts = info.maxExcerpts ?? 50;
  const out: string[] = [];
  out.push(`# Iggy batch report: ${cell(info.name)}`, "");
  out.push("| | |", "|---|---|");
  out.push(`| tool | iggy-batch-explorer ${info.toolVersion} |`);
  out.push(`| input | ${cell(info.name)} |`);
  out.push(`| size | ${analysis.size} bytes |`);
  if (info.envelope) out.push(`| starts with | ${cell(info.envelope)} |`);
  if (info.opened) out.push(`| format | ${cell(FORMAT_TITLES[info.opened.format])} (\`${info.opened.format}\`) |`, `| detected by | ${cell(info.opened.detectedBy)} |`);
  out.push(`| SHA-256 | \`${info.sha256}\` |`);
  out.push(`| summary | ${summarySentence(analysis.summary)} |`);
  out.push(`| verdict | ${analysis.summary.errors > 0 ? "**FAIL**" : "ok"} |`, "");

  if (info.opened) out.push(...containerSection(info.opened));
  const diags = analysis.diagnostics;
  out.push("## Diagnostics", "");
  if (diags.length === 0) out.push("None: every check passed.", "");
  else {
    out.push("| # | severity | code | bytes | batch | frame | message |", "|---:|---|---|---|---:|---:|---|");
    diags.forEach((d, i) => out.push(`| ${i + 1} | ${d.severity} | \`${d.code}\` | ${hex(d.start)}..${hex(d.end)} | ${d.batch ?? ""} | ${d.frame ?? ""} | ${cell(d.message)} |`));
    if (analysis.diagnosticsOmitted > 0) out.push("", `${analysis.diagnosticsOmitted} more diagnostics were found but not kept.`);
    out.push("");
    out.push("## Findings", "");
    diags.slice(0, maxExcerpts).forEach((d, i) => {
      out.push(`### ${i + 1}. \`${d.code}\` (${d.severity}) at ${hex(d.start)}..${hex(d.end)}`, "", cell(d.message), "");
      out.push("```text", annotatedExcerpt(bytes, d.start, d.end), "```", "");
    });
    if (diags.length > maxExcerpts) out.push(`Excerpts of the other ${diags.length - maxExcerpts} findings are left out.`, "");
  }

  const affected = [...new Set(diags.map((d) => d.batch).filter((b): b is number => b !== null))];
  if (affected.length > 0) {
    out.push("## Affected batches", "");
    for (const index of affected.slice(0, maxExcerpts)) {
      const b = analysis.batches[index];
      if (b) out.push(...headerTable(b), "");
    }
  }
  return out.join("\n");
}
