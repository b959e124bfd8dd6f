/**
 * What a report says, before it is written as Markdown or plain text: facts about the input, counts
 * by code, the first diagnostics by position, and the affected batches with their excerpts, each
 * list bounded so an input with millions of findings still makes a report of a few hundred lines.
 */
import { BATCH_HEADER_FIELDS } from "../../format/fields.ts";
import type { Diagnostic, DiagnosticCode, Severity } from "../../format/diagnostics.ts";
import { bytesToHex, hex64, hexOffset, plural, timeText } from "../../format/values.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import { toXxd } from "../../lib/byte-formats.ts";
import type { Analysis, BatchModel } from "../model/model.ts";
import { summarySentence } from "./summary-text.ts";
import { FORMAT_TITLES, type OpenedInput } from "../containers/types.ts";
import { frameEnd, frameIndexInBatch, frameUserHeadersLength } from "../model/frame-columns.ts";
import { windowSlice, type ByteWindow } from "../../lib/input-bytes.ts";
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { checksumSuspect } from "./checksum-suspect.ts";
import { segmentOutcome, verdictOf, type Verdict } from "../containers/verdict.ts";
import { DIAGNOSTIC_HELP } from "../../format/diagnostic-help.ts";
import { mdText, mdUrl } from "./markdown.ts";
import { visibleText } from "../../lib/text-escape.ts";

/** The help of a finding as Markdown lines (a quote block): why it matters, the likely causes, the rule and where upstream decides it. */
export function helpMarkdown(code: DiagnosticCode, suspect: string | null, escape: (s: string) => string = (s) => s): string[] {
  const h = DIAGNOSTIC_HELP[code];
  return [
    ...(suspect ? [`> **Which side:** ${escape(suspect)}`, ">"] : []),
    `> **Server:** ${escape(h.server)} **Likely causes:** ${escape(h.causes)}`,
    ">",
    `> **Rule:** ${escape(h.rule)} Upstream: \`${h.upstream}\` in apache/iggy; spec: \`${h.spec}\`.`,
  ];
}

/** The help of a finding as plain-text lines, indented by `by`. */
export function helpTextLines(code: DiagnosticCode, suspect: string | null, by = "     "): string[] {
  const h = DIAGNOSTIC_HELP[code];
  return [
    ...(suspect ? [`${by}which side: ${suspect}`] : []),
    `${by}server:     ${h.server}`,
    `${by}causes:     ${h.causes}`,
    `${by}rule:       ${h.rule}`,
    `${by}upstream:   apache/iggy ${h.upstream} (spec: ${h.spec})`,
  ];
}

/** What the host knows about the input that the analysis does not. */
/** The sentence under every report's picture, file and partition alike: the picture is a file to attach, not an inline image. */
export function attachSentence(src: string): string {
  return `The picture is a file: attach ${src} to the issue beside this report (trackers drop inline data: images and cannot see local files).`;
}

/** A report's picture in Markdown: the image, then attachSentence. */
export function pictureMarkdown(image: { readonly src: string; readonly caption: string }): string[] {
  return [`![${mdText(image.caption)}](${mdUrl(image.src)})`, "", mdText(attachSentence(image.src)), ""];
}

/** A report's picture in plain text: attachSentence with the file's name escaped. */
export function pictureText(image: { readonly src: string }): string {
  return attachSentence(visibleText(image.src));
}

export interface ReportInput {
  readonly name: string;
  /** Lowercase hex SHA-256 of the input. */
  readonly sha256: string;
  readonly toolVersion: string;
  /** The envelope the capture starts with, when it has one (e.g. "Poll reply (16 B)"). */
  readonly envelope?: string;
  /** The container the input was opened as (core/containers): its format, why, fields and recovery verdict. */
  readonly opened?: Pick<OpenedInput, "format" | "detectedBy" | "container" | "recovery" | "entries" | "legacy">;
  /** Excerpts written at most, over all batches. Default 50. */
  readonly maxExcerpts?: number;
  /** Diagnostics listed at most (the first by position; the rest are counted). Default 200. */
  readonly maxListed?: number;
  /** Affected batches given a section at most. Default 20. */
  readonly maxBatches?: number;
  /** When the input is a redacted copy: the original's SHA-256 and what was replaced. */
  readonly redacted?: { readonly originalSha256: string; readonly what: string };
  /** A share link that opens this input in the explorer. */
  readonly shareLink?: string;
  /** A picture of the bytes: a data: URL or a file name next to the report, and what it shows. */
  readonly image?: { readonly src: string; readonly caption: string };
  /** The kernel, when at hand: a stamped batch's checksum is then also checked against its producer's hash. */
  readonly xxh3?: Xxh3;
}

/**
 * The input's bytes as a report reads them: a few small ranges (excerpts, payload previews, user
 * headers), so an input read on demand can hand over just those. A Uint8Array is the whole input.
 */
export interface ReportBytes {
  readonly size: number;
  /** Bytes [start, end) clamped to the input. */
  read(start: number, end: number): Uint8Array;
}

/** The ranges a report reads depend only on the analysis and `info`, never on the bytes read: a pass that records them can fetch them first. */
export type ReportSource = Uint8Array | ReportBytes;

/**
 * Renders a report of an input whose bytes are read on demand, reading only what the report quotes:
 * a first pass records the ranges it reads (over zeros), `load` fetches them, the second pass renders from them.
 */
export async function renderFromRanges(
  size: number,
  load: (start: number, end: number) => Promise<ByteWindow>,
  render: (bytes: ReportBytes) => string,
): Promise<string> {
  const clamp = (start: number, end: number): [number, number] => {
    const s = Math.max(0, Math.min(size, start));
    return [s, Math.max(s, Math.min(size, end))];
  };
  const wanted = new Map<string, [number, number]>();
  render({
    size,
    read: (start, end) => {
      const [s, e] = clamp(start, end);
      wanted.set(`${s}:${e}`, [s, e]);
      return new Uint8Array(e - s);
    },
  });
  const got = new Map<string, Uint8Array>();
  for (const [key, [s, e]] of wanted) got.set(key, windowSlice(await load(s, e), s, e));
  return render({
    size,
    read: (start, end) => {
      const [s, e] = clamp(start, end);
      const bytes = got.get(`${s}:${e}`);
      if (!bytes) throw new Error(`the report read bytes ${s}..${e}, which its first pass did not`);
      return bytes;
    },
  });
}

const readerOf = (bytes: ReportSource): ReportBytes =>
  bytes instanceof Uint8Array ? { size: bytes.length, read: (start, end) => bytes.subarray(start, end) } : bytes;

/** One finding of a batch section, with its number in the diagnostics list. */
export interface ReportFinding {
  readonly number: number;
  readonly diagnostic: Diagnostic;
  readonly excerpt: string;
  /** Which side of a checksum mismatch is suspect (checksum-suspect.ts), or null. */
  readonly suspect: string | null;
}

/** One affected batch: header rows, notes on its frames with findings, and excerpts. */
export interface ReportBatch {
  readonly title: string;
  /** [field, offset, value] rows; empty when the header is incomplete. */
  readonly header: Array<[string, number, string]>;
  /** Input-derived text: payload previews and user headers of the frames with findings. */
  readonly frameNotes: string[];
  readonly findings: ReportFinding[];
  readonly findingsLeftOut: number;
}

/** Everything a report holds, bounded. */
export interface ReportData {
  readonly title: string;
  /** [label, value, value is input-derived text] rows. */
  readonly facts: Array<[string, string, boolean]>;
  readonly failed: boolean;
  /** Both verdict axes (verdict.ts): the server's outcome where one applies (a segment), and the findings. */
  readonly verdict: Verdict;
  readonly byCode: Array<{ code: DiagnosticCode; severity: Severity; count: number; firstAt: number }>;
  readonly listed: Diagnostic[];
  /** Diagnostics kept in the analysis but not listed, plus those the analysis did not keep. */
  readonly notListed: number;
  readonly batches: ReportBatch[];
  readonly batchesLeftOut: number;
  readonly excerptsLeftOut: number;
}

/** 0x-prefixed hex of an offset. */
export const hex = (n: number) => hexOffset(n, 0);
const PREVIEW_BYTES = 48;
const utf8 = new TextDecoder("utf-8", { fatal: false });

/** The xxd excerpt around [start, end) with the offending bytes marked; long ranges show their first and last rows. */
export function annotatedExcerpt(input: ReportSource, start: number, end: number, context = 1): string {
  const bytes = readerOf(input);
  const size = bytes.size;
  const markEnd = Math.max(end, start + 1);
  const rowOf = (o: number) => o - (o % 16);
  const from = Math.max(0, rowOf(start) - 16 * context);
  const to = Math.min(size, rowOf(Math.min(markEnd, size) - 1) + 16 * (context + 1));
  const rows = (to - from) / 16;
  if (rows <= 12) return toXxd(bytes.read(from, to), from, { start, end: markEnd });
  const headEnd = Math.min(size, rowOf(start) + 16 * 4);
  const tailStart = Math.max(headEnd, rowOf(Math.min(markEnd, size) - 1) - 16);
  return [
    toXxd(bytes.read(from, headEnd), from, { start, end: markEnd }),
    `          … ${((tailStart - headEnd) / 16).toLocaleString("en-US")} rows of the range not shown …`,
    toXxd(bytes.read(tailStart, to), tailStart, { start, end: markEnd }),
  ].join("\n");
}

function headerRows(b: BatchModel): Array<[string, number, string]> {
  const h = b.header;
  if (!h) return [];
  const values: Record<string, string> = {
    partition_id: h.partitionId.toString(),
    base_offset: h.baseOffset.toString(),
    base_timestamp: `${h.baseTimestamp} (${timeText(h.baseTimestamp, { zero: "producer: 0", outOfRange: () => "out of range" })})`,
    origin_timestamp: `${h.originTimestamp} (${timeText(h.originTimestamp, { outOfRange: () => "out of range" })})`,
    batch_length: h.batchLength.toString(),
    batch_checksum: `${hex64(h.batchChecksum)} (computed ${b.computedChecksum === null ? "n/a" : hex64(b.computedChecksum)}${b.computedChecksum === h.batchChecksum ? " ✓" : b.computedChecksum === null ? "" : " ✗"})`,
    message_count: String(h.messageCount),
    reserved: "204 bytes",
  };
  return BATCH_HEADER_FIELDS.map((f) => [f.name, f.offset, values[f.name] ?? ""]);
}

const printable = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\uffff]/g, ".");

// Text when the bytes are UTF-8 without controls (a cut last character aside), else the first bytes in hex.
function preview(bytes: Uint8Array): string {
  if (bytes.length === 0) return "(empty)";
  const text = utf8.decode(bytes);
  // eslint-disable-next-line no-control-regex -- controls make a payload binary, not text
  const bad = (text.match(/[\ufffd\u0000-\u0008\u000e-\u001f]/g) ?? []).length;
  if (bad <= 1 && !/[\ufffd]./.test(text)) return `"${text.replace(/\ufffd$/, "")}"`;
  return "hex " + bytesToHex(bytes.subarray(0, 16), " ");
}

// Payload preview and user headers of one frame with findings: the text a reader wants beside the bytes.
function frameNote(analysis: Analysis, bytes: ReportBytes, i: number): string {
  const f = analysis.frames;
  const s = f.start[i] as number;
  const payloadLength = f.payloadLength[i] as number;
  const payload = bytes.read(s + 48, s + 48 + Math.min(payloadLength, PREVIEW_BYTES));
  let note = `frame ${frameIndexInBatch(analysis.batches, i)} at ${hex(s)}: payload ${payloadLength} bytes ${preview(payload)}${payloadLength > PREVIEW_BYTES ? "…" : ""}`;
  const uhLength = frameUserHeadersLength(f, i);
  if (uhLength > 0) {
    const decoded = decodeUserHeaders(bytes.read(s + 48 + payloadLength, frameEnd(f, i)));
    note += decoded.ok
      ? `, user headers ${decoded.headers
          .slice(0, 6)
          .map((h) => `${printable(h.key.text)}=${printable(h.value.text).slice(0, 40)}`)
          .join(", ")}${decoded.headers.length > 6 ? ", …" : ""}`
      : `, user headers ${uhLength} bytes, not TLV`;
  }
  return note;
}

/** Collects what a report of this analysis says, within the input's limits. */
export function collectReport(analysis: Analysis, input: ReportSource, info: ReportInput): ReportData {
  const bytes = readerOf(input);
  const maxExcerpts = info.maxExcerpts ?? 50;
  const maxListed = info.maxListed ?? 200;
  const maxBatches = info.maxBatches ?? 20;
  const diags = analysis.diagnostics;
  const facts: Array<[string, string, boolean]> = [
    ["tool", `iggy-batch-explorer ${info.toolVersion}`, false],
    ["input", info.name, true],
    ["size", `${analysis.size} bytes`, false],
    ...(info.envelope ? [["starts with", info.envelope, false] as [string, string, boolean]] : []),
    ...(info.opened
      ? ([
          ["format", `${FORMAT_TITLES[info.opened.format]} (${info.opened.format})`, false],
          ["detected by", info.opened.detectedBy, true],
        ] as Array<[string, string, boolean]>)
      : []),
    ["SHA-256", info.sha256, false],
    ...(info.redacted ? [["redacted copy of", `${info.redacted.originalSha256} (${info.redacted.what})`, true] as [string, string, boolean]] : []),
    ["summary", summarySentence(analysis.summary), false],
  ];

  const codes = new Map<DiagnosticCode, { code: DiagnosticCode; severity: Severity; count: number; firstAt: number }>();
  for (const d of diags) {
    const c = codes.get(d.code);
    if (c) c.count++;
    else codes.set(d.code, { code: d.code, severity: d.severity, count: 1, firstAt: d.start });
  }

  const byBatch = new Map<number, number[]>();
  diags.forEach((d, i) => {
    const key = d.batch ?? -1;
    const list = byBatch.get(key);
    if (list) list.push(i);
    else byBatch.set(key, [i]);
  });
  let excerptsLeft = maxExcerpts;
  let excerptsLeftOut = 0;
  const batches: ReportBatch[] = [];
  for (const [index, numbers] of [...byBatch].slice(0, maxBatches)) {
    const b = analysis.batches.at(index);
    const counts = b
      ? [plural(b.errors, "error", "errors"), plural(b.warnings, "warning", "warnings"), plural(b.infos, "info", "infos")].join(", ")
      : plural(numbers.length, "finding", "findings");
    const title = b
      ? `Batch ${b.index} at ${hex(b.start)}..${hex(b.end)}, ${b.header ? (b.stamped ? "stamped" : "producer") : "incomplete header"}, ${plural(b.frameCount, "complete frame", "complete frames")}: ${counts}`
      : `Outside any batch: ${counts}`;
    const frames = [
      ...new Set(
        numbers
          .map((n) => diags[n] as Diagnostic)
          .filter((d) => d.frame !== null && b)
          .map((d) => (b as BatchModel).firstFrame + (d.frame as number)),
      ),
    ].filter((i) => b && i < b.firstFrame + b.frameCount);
    const take = Math.min(numbers.length, excerptsLeft);
    excerptsLeft -= take;
    excerptsLeftOut += numbers.length - take;
    batches.push({
      title,
      header: b ? headerRows(b) : [],
      frameNotes: frames.slice(0, 8).map((i) => frameNote(analysis, bytes, i)),
      findings: numbers.slice(0, take).map((n) => ({
        number: n + 1,
        diagnostic: diags[n] as Diagnostic,
        excerpt: annotatedExcerpt(bytes, (diags[n] as Diagnostic).start, (diags[n] as Diagnostic).end),
        suspect: checksumSuspect(analysis, diags[n] as Diagnostic, input instanceof Uint8Array && info.xxh3 ? { xxh3: info.xxh3, bytes: input } : undefined),
      })),
      findingsLeftOut: numbers.length - take,
    });
  }
  return {
    title: `Iggy batch report: ${info.name}`,
    facts,
    failed: analysis.summary.errors > 0,
    verdict: verdictOf(analysis.summary, info.opened?.recovery ? segmentOutcome(info.name, info.opened.recovery, analysis.size) : null),
    byCode: [...codes.values()].sort((a, b) => a.firstAt - b.firstAt),
    listed: diags.slice(0, maxListed),
    notListed: Math.max(0, diags.length - maxListed) + analysis.diagnosticsOmitted,
    batches,
    batchesLeftOut: Math.max(0, byBatch.size - maxBatches),
    excerptsLeftOut,
  };
}
