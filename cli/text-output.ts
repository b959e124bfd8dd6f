/** The human form of `iggy-batch inspect`: a line per batch with its verdict, then the diagnostics with hex offsets. */
import type { Analysis, BatchModel } from "../src/core/model.ts";
import { hex64, hexOffset, plural } from "../src/format/values.ts";
import { summarySentence } from "../src/core/summary-text.ts";


/** One-line summary: numbers first, as the page's status line reads. */
export function summaryLine(a: Analysis): string {
  return summarySentence(a.summary);
}

function verdict(b: BatchModel): string {
  if (b.errors > 0) return `FAIL (${plural(b.errors, "error")})`;
  if (b.warnings > 0) return `ok, ${plural(b.warnings, "warning")}`;
  return "ok";
}

function batchRow(b: BatchModel): string[] {
  const h = b.header;
  const checksum = h === null ? "-" : b.computedChecksum === null ? hex64(h.batchChecksum) : b.computedChecksum === h.batchChecksum ? `${hex64(h.batchChecksum)} ✓` : `${hex64(h.batchChecksum)} ✗`;
  return [
    String(b.index), hexOffset(b.start), String(b.end - b.start),
    h ? h.partitionId.toString() : "-", h ? h.baseOffset.toString() : "-",
    h ? String(h.messageCount) : "-", String(b.frameCount),
    h === null ? "incomplete" : b.stamped ? "stamped" : "producer", checksum, verdict(b),
  ];
}

/** Renders the whole human report of one input. */
export function renderText(a: Analysis, name: string): string {
  const lines: string[] = [];
  lines.push(`${name}: ${a.size} bytes · ${summaryLine(a)}`);
  if (a.batches.length > 0) {
    const head = ["batch", "offset", "bytes", "partition", "base_offset", "count", "frames", "kind", "batch_checksum", "verdict"];
    const rows = [head, ...a.batches.map(batchRow)];
    // A loop, not Math.max(...rows): a spread of 100k+ batches overflows the stack.
    const widths = head.map(() => 0);
    for (const r of rows) r.forEach((cell, c) => { widths[c] = Math.max(widths[c] as number, cell.length); });
    const right = new Set([0, 2, 3, 4, 5, 6]);
    lines.push("");
    for (const row of rows) lines.push(row.map((cell, c) => (right.has(c) ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number))).join("  ").trimEnd());
  }
  if (a.diagnostics.length > 0) {
    lines.push("", "diagnostics:");
    for (const d of a.diagnostics) {
      lines.push(`  ${d.severity.padEnd(7)} ${hexOffset(d.start)}..${hexOffset(d.end)}  ${d.code}: ${d.message}`);
    }
    if (a.diagnosticsOmitted > 0) lines.push(`  … and ${a.diagnosticsOmitted} more not listed`);
  }
  lines.push("", a.summary.errors > 0 ? `verdict: FAIL (${plural(a.summary.errors, "error")})` : "verdict: ok");
  return lines.join("\n") + "\n";
}
