/** The CLI's findings commands: `redact`, `render`, and what `report` adds (redacted copy, text variant, picture). */
import { createHash } from "node:crypto";
import { basename, dirname, relative } from "node:path";
import { fstatSync, openSync, readSync } from "node:fs";
import { renderPartitionMarkdown, renderPartitionText } from "../src/core/report/report-partition.ts";
import type { ReportBytes } from "../src/core/report/report-data.ts";
import { readInputBytes } from "./io.ts";
import type { Analysis } from "../src/core/model/model.ts";
import type { FormatChoice, OpenedInput } from "../src/core/containers/index.ts";
import { loadXxh3, type Xxh3 } from "../src/checksum/xxh3.ts";
import { fittingLink, LINK_CHAR_LIMIT } from "../src/core/report/share-fit.ts";
import { encodeShareFragment } from "../src/lib/share-codec.ts";
import { diagnosticDifferences, redactCopy, type RedactOptions } from "../src/core/edit/redact.ts";
import { defaultPictureRange, renderHexSvg } from "../src/core/report/render-svg.ts";
import { renderLayoutSvg, type DiagramTarget } from "../src/core/report/render-diagram.ts";
import { renderMarkdownReport, type ReportInput } from "../src/core/report/report.ts";
import { renderTextReport } from "../src/core/report/report-text.ts";
import { LIGHT_PALETTE } from "../src/core/view/palette.ts";
import { TOOL_VERSION } from "../src/version.ts";
import { CliProblem, openDirectory, openFile } from "./containers.ts";
import { hexOffset, plural } from "../src/format/values.ts";

/** The input as the command will show it: the original or its redacted copy, opened as its format. */
export interface Subject {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly opened: OpenedInput;
  readonly analysis: Analysis;
  readonly sha256: string;
  readonly redacted?: { readonly originalSha256: string; readonly what: string };
  /** The kernel the subject was opened with, for the reports' checksum checks. */
  readonly xxh3: Xxh3;
  /** What redaction replaced, for the command's summary line. */
  readonly replaced?: string;
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Words for what a redaction replaced, for reports and captions. */
export function redactedWhat(options: RedactOptions): string {
  return ["payloads", ...(options.userHeaders ? ["user header values"] : []), ...(options.ids ? ["message ids"] : [])]
    .join(", ")
    .replace(/, ([^,]*)$/, " and $1");
}

/**
 * Opens the input as its format and, when asked, replaces it by its redacted copy, opened again as the
 * same format. A copy whose findings would differ (a container checksum over the payloads) is refused.
 */
export async function subjectOf(bytes: Uint8Array, path: string, format: FormatChoice, redact: RedactOptions | null): Promise<Subject> {
  const { opened, name } = await openFile(bytes, path, format);
  const xxh3 = await loadXxh3();
  if (!redact) return { name, bytes, opened, analysis: opened.analysis, sha256: sha256Of(bytes), xxh3 };
  // A copy of a capture would carry every payload (and a login's secret) in its packets: its batches are redacted out of it.
  if (opened.format === "capture")
    throw new CliProblem(
      `iggy-batch: a capture is redacted batch by batch: iggy-batch extract ${path} --batches --redact -o OUT.bin (every batch of it, payloads replaced), or --message C:I --redact`,
    );
  // Legacy messages carry their payloads outside any batch frame: a copy would keep them.
  if (opened.legacy && opened.legacy.messages.length > 0) {
    throw new CliProblem(
      `iggy-batch: redaction reads batch frames, and ${path} holds legacy messages; convert it first (iggy-batch convert ${path} -o OUT.log), then redact OUT.log`,
    );
  }
  const r = redactCopy(await loadXxh3(), bytes, opened.analysis, redact);
  // Opened again as the user asked (auto-detect included): a copy that detects or decodes differently is refused below.
  const again = (await openFile(r.bytes, path, format)).opened;
  const differences = diagnosticDifferences(opened.analysis, again.analysis);
  if (differences.length > 0)
    throw new CliProblem(`iggy-batch: redacting this ${opened.format} input would change its findings (${differences.join("; ")}); nothing written`);
  const replaced =
    [
      plural(r.payloads, "payload"),
      ...(redact.userHeaders ? [plural(r.userHeaderValues, "user header value")] : []),
      ...(redact.ids ? [plural(r.ids, "id")] : []),
      ...(r.trailingBytes ? [plural(r.trailingBytes, "byte past the last batch", "bytes past the last batch")] : []),
    ].join(", ") + " replaced";
  return {
    name,
    xxh3,
    bytes: r.bytes,
    opened: again,
    analysis: again.analysis,
    sha256: sha256Of(r.bytes),
    redacted: { originalSha256: sha256Of(bytes), what: redactedWhat(redact) },
    replaced,
  };
}

/** Parses `A..B` (decimal or 0x hex, half-open); null when malformed. */
export function parseRange(text: string): { start: number; end: number } | null {
  const m = /^\s*(0x[0-9a-f]+|\d+)\s*\.\.\s*(0x[0-9a-f]+|\d+)\s*$/i.exec(text);
  if (!m) return null;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && start <= end ? { start, end } : null;
}

/** Parses `batch:N` or `frame:N:K` (frame K of batch N) into a target of the analysis; a sentence saying why not otherwise. */
export function parseDiagramTarget(analysis: Analysis, text: string): DiagramTarget | string {
  const m = /^\s*(?:batch:(\d+)|frame:(\d+):(\d+))\s*$/.exec(text);
  if (!m) return "--diagram takes batch:N or frame:N:K (frame K of batch N)";
  const batch = Number(m[1] ?? m[2]);
  const b = analysis.batches.at(batch);
  if (!b?.header) return b ? `batch ${batch} has no whole header to draw` : `there is no batch ${batch} (the input has ${analysis.batches.length})`;
  if (m[1] !== undefined) return { kind: "batch", batch };
  const k = Number(m[3]);
  if (k >= b.frameCount) return `batch ${batch} has ${plural(b.frameCount, "frame")}, not a frame ${k}`;
  return { kind: "frame", frame: b.firstFrame + k };
}

/** The SVG layout diagram of one header of the subject. */
export function diagramOf(subject: Subject, target: DiagramTarget): string {
  return renderLayoutSvg(subject.analysis, subject.bytes, {
    name: subject.name,
    sha256: subject.sha256,
    target,
    palette: LIGHT_PALETTE,
    redactedFrom: subject.redacted?.originalSha256,
  });
}

/** The SVG picture of a range of the subject (by default around its first finding). */
export function pictureOf(subject: Subject, range: { start: number; end: number } | null): { svg: string; caption: string } {
  const r = range ?? defaultPictureRange(subject.analysis);
  const svg = renderHexSvg(subject.analysis, subject.bytes, {
    name: subject.name,
    sha256: subject.sha256,
    start: r.start,
    end: r.end,
    palette: LIGHT_PALETTE,
    redactedFrom: subject.redacted?.originalSha256,
    opened: subject.opened,
  });
  return {
    svg,
    caption: `Hex map of ${subject.name}, bytes ${hexOffset(r.start, 0)}..${hexOffset(Math.min(r.end, subject.bytes.length), 0)}, findings marked`,
  };
}

/** How `report` was asked to write. */
export interface ReportChoice {
  readonly text: boolean;
  /** Write the picture to this file and link it from the report. */
  readonly svgFile: string | null;
  readonly embedSvg: boolean;
  /** Where the report goes ("-" for standard output), to link the picture relative to it. */
  readonly out: string;
  /** The page address share links start with; null for no link. */
  readonly baseUrl: string | null;
}

/** The share link of the subject around its first finding (or whole when it fits), as the report shows it; null when none fits. */
export function subjectLink(subject: Subject, baseUrl: string): { url: string; carries: string } | null {
  const base = {
    baseUrl,
    name: subject.name,
    format: subject.opened.format,
    sha256: subject.redacted?.originalSha256 ?? subject.sha256,
    ...(subject.redacted ? { redacted: { originalSha256: subject.redacted.originalSha256, what: subject.redacted.what } } : {}),
  };
  const d = subject.analysis.diagnostics[0];
  if (!d) {
    if (subject.bytes.length > LINK_CHAR_LIMIT * 16) return null;
    const url =
      baseUrl.replace(/#.*$/, "") +
      encodeShareFragment({
        name: base.name,
        bytes: subject.bytes,
        selection: null,
        format: base.format,
        ...(base.redacted ? { redacted: base.redacted } : {}),
      });
    return url.length <= LINK_CHAR_LIMIT ? { url, carries: "the whole input" } : null;
  }
  const got = fittingLink(subject.analysis, d, base, (s, e) => subject.bytes.subarray(s, e));
  return got
    ? { url: got.url, carries: `${got.scope.label.charAt(0).toLowerCase()}${got.scope.label.slice(1)}, around ${d.code} at ${hexOffset(d.start, 0)}` }
    : null;
}

/** The report text, and the picture file to write beside it when one was asked for. */
export function reportOf(subject: Subject, choice: ReportChoice): { report: string; svgFile?: { path: string; svg: string } } {
  let image: ReportInput["image"];
  let svgFile: { path: string; svg: string } | undefined;
  if (choice.svgFile || (choice.embedSvg && !choice.text)) {
    const { svg, caption } = pictureOf(subject, null);
    if (choice.svgFile) {
      svgFile = { path: choice.svgFile, svg };
      image = { src: choice.out === "-" ? choice.svgFile : relative(dirname(choice.out), choice.svgFile) || choice.svgFile, caption };
    } else image = { src: `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`, caption };
    // Plain text cannot show a picture: the file is still written.
    if (choice.text) image = undefined;
  }
  const link = choice.baseUrl ? subjectLink(subject, choice.baseUrl) : null;
  const info: ReportInput = {
    name: subject.name,
    sha256: subject.sha256,
    toolVersion: TOOL_VERSION,
    opened: subject.opened,
    xxh3: subject.xxh3,
    ...(link ? { shareLink: link.url } : {}),
    ...(subject.redacted ? { redacted: subject.redacted } : {}),
    ...(image ? { image } : {}),
  };
  const report = choice.text ? renderTextReport(subject.analysis, subject.bytes, info) : renderMarkdownReport(subject.analysis, subject.bytes, info);
  return svgFile ? { report, svgFile } : { report };
}

/** A file of the partition read again a range at a time (synchronously, as the report asks), never whole; the descriptor lives until the command exits. */
function fileRanges(path: string): ReportBytes | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  const size = fstatSync(fd).size;
  return {
    size,
    read: (start, end) => {
      const s = Math.max(0, Math.min(size, start));
      const buf = new Uint8Array(Math.max(0, Math.min(size, end) - s));
      let at = 0;
      while (at < buf.length) {
        const n = readSync(fd, buf, at, buf.length - at, s + at);
        if (n === 0) break;
        at += n;
      }
      return buf;
    },
  };
}

/** Files up to this size are read whole again for a report's picture or share link. */
const REOPEN_LIMIT = 256 << 20;

/**
 * `report DIR`: the partition report (core/report/report-partition.ts), with the picture and the share link of the
 * file of the first finding that has bytes (a link carries one file), and the exit status of `inspect DIR`.
 */
export async function reportDirectory(dir: string, choice: ReportChoice): Promise<{ report: string; svgFile?: { path: string; svg: string }; status: number }> {
  const { result, paths } = await openDirectory(dir);
  const first = result.diagnostics.find((d) => d.file !== "." && paths.has(d.file));
  let subject: Subject | null = null;
  if (first && (choice.svgFile || choice.baseUrl)) {
    const path = paths.get(first.file) as string;
    const size = result.files.find((f) => f.name === first.file)?.size ?? 0;
    if (size <= REOPEN_LIMIT) subject = await subjectOf(await readInputBytes(path), path, "auto", null);
  }
  let svgFile: { path: string; svg: string } | undefined;
  let image: { src: string; caption: string } | undefined;
  if (choice.svgFile && subject && first) {
    const { svg, caption } = pictureOf(subject, {
      start: Math.max(0, first.start - (first.start % 16) - 32),
      end: Math.min(subject.bytes.length, first.end + 48),
    });
    svgFile = { path: choice.svgFile, svg };
    image = { src: choice.out === "-" ? choice.svgFile : relative(dirname(choice.out), choice.svgFile) || choice.svgFile, caption };
  }
  let shareLink: { url: string; carries: string } | undefined;
  if (choice.baseUrl && subject && first) {
    // The finding as the partition placed it (a chain finding is not the file's own): its range and batch are the file's.
    const bytes = subject.bytes;
    const got = fittingLink(
      subject.analysis,
      first,
      { baseUrl: choice.baseUrl, name: subject.name, format: subject.opened.format, sha256: subject.sha256 },
      (s, e) => bytes.subarray(s, e),
    );
    const chain = first.code.startsWith("partition-")
      ? "; the finding is about the chain between segments, and a link carries one file, so open the segment before it too"
      : "";
    if (got) shareLink = { url: got.url, carries: `${first.file}: ${got.scope.label.charAt(0).toLowerCase()}${got.scope.label.slice(1)}${chain}` };
  }
  const input = {
    name: basename(dir) || dir,
    toolVersion: TOOL_VERSION,
    result,
    fileBytes: (file: string) => (paths.has(file) ? fileRanges(paths.get(file) as string) : null),
    ...(shareLink ? { shareLink } : {}),
    ...(image ? { image } : {}),
  };
  const report = choice.text ? renderPartitionText(input) : renderPartitionMarkdown(input);
  return { report, ...(svgFile ? { svgFile } : {}), status: result.summary.errors > 0 ? 1 : 0 };
}
