/**
 * The report of the open partition (core/report/report-partition.ts), made from the dropped files: a first pass
 * records the byte ranges it quotes per file, those ranges alone are read from the Files, and the second
 * pass renders from them, so a partition of large segments is never read whole for its report.
 */
import { renderPartitionMarkdown, renderPartitionText, type PartitionReportInput } from "../../core/report/report-partition.ts";
import type { ReportBytes } from "../../core/report/report-data.ts";
import type { OpenPartition } from "../state/app-state.ts";
import { TOOL_VERSION } from "../../version.ts";

/** What a share link of a partition carries, as the report and the panel say it: one file, and why not more. */
export function partitionLinkCarries(partition: OpenPartition): string {
  const others = partition.result.files.length - 1;
  const across = [...new Set(partition.result.diagnostics.filter((d) => d.code.startsWith("partition-")).map((d) => d.code))];
  return (
    `${partition.shown ?? "no file"} only, one file of ${partition.result.files.length}: a link carries one file, not the other ${others}` +
    (across.length > 0 ? `, which ${across.join(", ")} compares it with (attach the folder or this report)` : "")
  );
}

interface Window {
  readonly start: number;
  readonly bytes: Uint8Array;
}

/** The partition's report as Markdown or plain text, with the share link of its shown file when given. */
export async function partitionReport(partition: OpenPartition, kind: "markdown" | "text", shareLink: string | null): Promise<string> {
  const base = {
    name: partition.name,
    toolVersion: TOOL_VERSION,
    result: partition.result,
    ...(shareLink ? { shareLink: { url: shareLink, carries: partitionLinkCarries(partition) } } : {}),
  };
  const render = (fileBytes: PartitionReportInput["fileBytes"]) =>
    kind === "markdown" ? renderPartitionMarkdown({ ...base, fileBytes }) : renderPartitionText({ ...base, fileBytes });
  const clamp = (size: number, start: number, end: number): [number, number] => {
    const s = Math.max(0, Math.min(size, start));
    return [s, Math.max(s, Math.min(size, end))];
  };
  // First pass: which ranges of which files the report quotes (read as zeros).
  const wanted = new Map<string, [number, number][]>();
  render((file) => {
    const blob = partition.files.get(file);
    if (!blob) return null;
    return {
      size: blob.size,
      read: (start, end) => {
        const [s, e] = clamp(blob.size, start, end);
        wanted.set(file, [...(wanted.get(file) ?? []), [s, e]]);
        return new Uint8Array(e - s);
      },
    };
  });
  const loaded = new Map<string, Window[]>();
  for (const [file, ranges] of wanted) {
    const blob = partition.files.get(file)!;
    const windows: Window[] = [];
    for (const [s, e] of ranges) windows.push({ start: s, bytes: new Uint8Array(await blob.slice(s, e).arrayBuffer()) });
    loaded.set(file, windows);
  }
  // Second pass: the same ranges, now read.
  return render((file): ReportBytes | null => {
    const blob = partition.files.get(file);
    if (!blob) return null;
    const windows = loaded.get(file) ?? [];
    return {
      size: blob.size,
      read: (start, end) => {
        const [s, e] = clamp(blob.size, start, end);
        const w = windows.find((x) => x.start <= s && x.start + x.bytes.length >= e);
        return w ? w.bytes.subarray(s - w.start, e - w.start) : new Uint8Array(e - s);
      },
    };
  });
}
