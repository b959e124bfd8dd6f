/** The human form of `iggy-batch inspect`: a line per batch with its verdict, then the diagnostics with hex offsets. */
import type { Analysis, BatchModel } from "../src/core/model/model.ts";
import { hex64, hexOffset, plural } from "../src/format/values.ts";
import { summarySentence } from "../src/core/report/summary-text.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import { FORMAT_TITLES, type OpenedInput } from "../src/core/containers/types.ts";
import { findingsVerdict, segmentOutcome, verdictOf, type Verdict } from "../src/core/containers/verdict.ts";

/** One-line summary: numbers first, as the page's status line reads. */
export function summaryLine(a: Analysis): string {
  return summarySentence(a.summary);
}

// The findings axis of the verdict vocabulary (core/containers/verdict.ts), per batch: "clean" or "1 error, 0 warnings".
const verdict = (b: BatchModel): string => findingsVerdict(b).words;

function batchRow(b: BatchModel): string[] {
  const h = b.header;
  const checksum =
    h === null
      ? "-"
      : b.computedChecksum === null
        ? hex64(h.batchChecksum)
        : b.computedChecksum === h.batchChecksum
          ? `${hex64(h.batchChecksum)} ✓`
          : `${hex64(h.batchChecksum)} ✗`;
  return [
    String(b.index),
    hexOffset(b.start),
    String(b.end - b.start),
    h ? h.partitionId.toString() : "-",
    h ? h.baseOffset.toString() : "-",
    h ? String(h.messageCount) : "-",
    String(b.frameCount),
    h === null ? "incomplete" : b.stamped ? "stamped" : "producer",
    checksum,
    verdict(b),
  ];
}

/**
 * The human report of one input as text pieces (the name and messages escaped for the terminal), a line per batch, with the verdict line last: a segment
 * of single-message batches has millions of lines, written out without one giant string.
 */
function* textChunks(a: Analysis, name: string, beforeVerdict: () => string, verdictLine: string): Generator<string> {
  yield `${visibleText(name)}: ${a.size} bytes · ${summaryLine(a)}\n`;
  if (a.batches.length > 0) {
    const head = ["batch", "offset", "bytes", "partition", "base_offset", "count", "frames", "kind", "batch_checksum", "findings"];
    // Two passes, the rows made again in the second: holding every row's cells to measure the columns took
    // about 1 GB for 664,444 single-message batches.
    const widths = head.map((h) => h.length);
    for (let i = 0; i < a.batches.length; i++)
      batchRow(a.batches.at(i) as BatchModel).forEach((cell, c) => {
        widths[c] = Math.max(widths[c] as number, cell.length);
      });
    const right = new Set([0, 2, 3, 4, 5, 6]);
    const line = (row: string[]): string =>
      row
        .map((cell, c) => (right.has(c) ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number)))
        .join("  ")
        .trimEnd();
    yield `\n${line(head)}\n`;
    // Lines in pieces of a few hundred: one write per line would cost more than the line.
    let piece: string[] = [];
    for (let i = 0; i < a.batches.length; i++) {
      piece.push(line(batchRow(a.batches.at(i) as BatchModel)));
      if (piece.length === 512) {
        yield piece.join("\n") + "\n";
        piece = [];
      }
    }
    if (piece.length > 0) yield piece.join("\n") + "\n";
  }
  if (a.diagnostics.length > 0) {
    yield "\ndiagnostics:\n";
    for (const d of a.diagnostics) yield `  ${d.severity.padEnd(7)} ${hexOffset(d.start)}..${hexOffset(d.end)}  ${d.code}: ${visibleText(d.message)}\n`;
    if (a.diagnosticsOmitted > 0) yield `  … and ${a.diagnosticsOmitted} more not listed\n`;
  }
  yield beforeVerdict();
  yield `\n${verdictLine}\n`;
}

/** The format line of contracts.md §1.1: which format and why. */
export function formatLine(opened: OpenedInput): string {
  return `format: ${FORMAT_TITLES[opened.format]} [${opened.format}] (${visibleText(opened.detectedBy)})`;
}

const MAX_LISTED = 50;

/** The container sections of one file: its fields, index entries, legacy runs, recovery verdict. */
export function renderContainerText(opened: OpenedInput): string {
  const lines: string[] = [];
  const c = opened.container;
  if (c && opened.format !== "index" && opened.format !== "legacy-messages" && c.fields.length > 0) {
    lines.push("", `container ${c.format} (${hexOffset(c.start)}..${hexOffset(c.end)}):`);
    const width = c.fields.reduce((m, f) => Math.max(m, f.name.length), 0);
    for (const f of c.fields) lines.push(`  ${hexOffset(f.start)}  ${f.name.padEnd(width)}  ${visibleText(f.value)}`);
  }
  if (opened.entries) {
    lines.push("", `index entries: ${opened.entries.length}`);
    if (opened.entries.length > 0) lines.push("  entry        offset         timestamp    position");
    for (const e of opened.entries.slice(0, MAX_LISTED))
      lines.push(
        `  ${String(e.index).padStart(5)}  ${e.offset.toString().padStart(12)}  ${e.timestamp.toString().padStart(16)}  ${e.position.toString().padStart(10)}`,
      );
    if (opened.entries.length > MAX_LISTED) lines.push(`  … and ${opened.entries.length - MAX_LISTED} more`);
  }
  if (opened.legacy) {
    lines.push(
      "",
      `legacy messages: ${plural(opened.legacy.messages.length, "message")} in ${plural(opened.legacy.runs.length, "run")} (one origin batch per timestamp)`,
    );
    for (const r of opened.legacy.runs.slice(0, MAX_LISTED)) lines.push(`  ${r.checkable ? "checked  " : "unchecked"} ${visibleText(r.note)}`);
    if (opened.legacy.runs.length > MAX_LISTED) lines.push(`  … and ${opened.legacy.runs.length - MAX_LISTED} more runs`);
  }
  // Once: when recovery stops, its sentence is already the recovery-stops finding's message.
  if (opened.recovery && !opened.analysis.diagnostics.some((d) => d.code === "recovery-stops")) lines.push("", visibleText(opened.recovery.sentence));
  return lines.length ? lines.join("\n") + "\n" : "";
}

/** The verdict line of one file on both axes (core/containers/verdict.ts): the server's outcome for a segment, and the findings. */
export function fileVerdict(opened: OpenedInput, name: string): Verdict {
  const a = opened.analysis;
  return verdictOf(a.summary, opened.recovery ? segmentOutcome(name, opened.recovery, a.size) : null);
}

/**
 * One file's whole human report as text pieces (see textChunks): the format line, the batch report, the container
 * sections before its verdict. In a partition (`inPartition`) a file's line gives its findings only: the server's
 * outcome is the partition's, printed once at the end.
 */
export function* openedTextChunks(opened: OpenedInput, name: string, inPartition = false): Generator<string> {
  yield `${formatLine(opened)}\n`;
  const v = fileVerdict(opened, name);
  const line = inPartition ? `findings in ${visibleText(name)}: ${v.findings.words}` : `verdict: ${visibleText(v.line)}`;
  yield* textChunks(opened.analysis, name, () => renderContainerText(opened), line);
}
