/**
 * A picture of the bytes: the hex map of one byte range as a standalone SVG (no DOM needed), with
 * the field colours, one mark per problem byte (hatched and outlined, so it survives print and grey
 * scale), offsets, frame and batch boundaries, a legend and a caption (name, range, SHA-256, verdict).
 */
import { hexOffset } from "../../format/values.ts";
import { ALL_BYTE_KINDS, describeKind, type ByteKind } from "../../format/fields.ts";
import type { Diagnostic, Severity } from "../../format/diagnostics.ts";
import { fillKinds } from "../view/byte-map.ts";
import { overlayContainerKinds } from "../view/byte-kinds.ts";
import type { OpenedInput } from "../containers/types.ts";
import type { Analysis } from "../model/model.ts";
import { summarySentence } from "./summary-text.ts";
import { visibleText } from "../../lib/text-escape.ts";

/** Background colours per kind and the text colour on them (core/view/palette.ts, which the page's kinds.css matches). */
export interface SvgPalette {
  readonly fg: string;
  readonly bg: { readonly [K in ByteKind]: string };
}

/** What the caption names, and which bytes to draw. */
export interface SvgRequest {
  readonly name: string;
  /** Lowercase hex SHA-256 of the input drawn. */
  readonly sha256: string;
  /** Half-open range to draw; clamped to the input and to MAX_SVG_BYTES. */
  readonly start: number;
  readonly end: number;
  readonly palette: SvgPalette;
  /** The SHA-256 of the original, when the input drawn is a redacted copy of it. */
  readonly redactedFrom?: string;
  /** The container the input was opened as, so its header fields get their colours too. */
  readonly opened?: Pick<OpenedInput, "container" | "entries" | "legacy">;
}

/** Most bytes one picture shows (1,024 rows); a longer range is cut and the caption says so. */
export const MAX_SVG_BYTES = 16 * 1024;

const ROW = 18;
const CELL = 22;
const HEX_X = 84;
const ASCII_X = HEX_X + 16 * CELL + 14;
const CHAR = 7.4;
const WIDTH = ASCII_X + 16 * CHAR + 16;
const SEVERITY_RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };
const MARK_STROKE: Record<Severity, string> = { error: "#b00020", warning: "#8a5a00", info: "#1f4fa0" };
const MARK_DASH: Record<Severity, string> = { error: "", warning: ' stroke-dasharray="3 2"', info: ' stroke-dasharray="1 2"' };
const MAX_LISTED = 12;

const hex = (n: number) => hexOffset(n, 0);

/** Escapes text for XML content and attributes, a control or bidi character shown as its visible escape (lib/text-escape.ts). */
export function xmlText(s: string): string {
  return xmlMarkup(visibleText(s));
}

// XML escapes alone, for text made here of printable ASCII (the hex map's ASCII column), whose width must not change.
function xmlMarkup(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

/** The worst severity covering each byte of [start, end), 0 where none; an empty range marks the byte it points at. */
export function problemBytes(diagnostics: readonly Diagnostic[], start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  for (const d of diagnostics) {
    const s = Math.max(start, d.start);
    const e = Math.min(end, Math.max(d.end, d.start + 1));
    const rank = SEVERITY_RANK[d.severity];
    for (let o = s; o < e; o++) if ((out[o - start] as number) < rank) out[o - start] = rank;
  }
  return out;
}

const WRAP = Math.floor((WIDTH - 16) / CHAR);

/** Breaks text at spaces into lines of at most `width` characters (a longer word gets its own line). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = "  " + word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Severity by the rank problemBytes gives (0: none). */
export const RANK_SEVERITY: readonly (Severity | null)[] = [null, "info", "warning", "error"];

/** The <defs> of the hatches a mark is filled with, one per severity. */
export function patterns(): string {
  return [
    "<defs>",
    '<pattern id="hatch-error" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="4" stroke="#b00020" stroke-width="1.4"/></pattern>',
    '<pattern id="hatch-warning" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><line x1="0" y1="0" x2="0" y2="5" stroke="#8a5a00" stroke-width="1"/></pattern>',
    '<pattern id="hatch-info" width="4" height="4" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="0.8" fill="#1f4fa0"/></pattern>',
    "</defs>",
  ].join("");
}

/** A mark over a problem: hatched fill and a solid, dashed or dotted outline per severity, so it survives grey scale. */
export function markRect(severity: Severity, x: number, y: number, w: number, h: number, attrs: string): string {
  return `<rect ${attrs} x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#hatch-${severity})" fill-opacity="0.55" stroke="${MARK_STROKE[severity]}" stroke-width="1.5"${MARK_DASH[severity]}/>`;
}

/** Renders the range as an SVG document (UTF-8 text). */
export function renderHexSvg(analysis: Analysis, bytes: Uint8Array, req: SvgRequest): string {
  const start = Math.max(0, Math.min(bytes.length, Math.trunc(req.start)));
  const requestedEnd = Math.max(start, Math.min(bytes.length, Math.trunc(req.end)));
  const end = Math.min(requestedEnd, start + MAX_SVG_BYTES);
  const { palette } = req;
  const kinds = new Uint8Array(end - start);
  const edges = new Uint8Array(end - start);
  fillKinds(analysis, bytes, start, end, kinds, edges);
  if (req.opened) overlayContainerKinds(req.opened, bytes, start, end, kinds);
  const problems = problemBytes(analysis.diagnostics, start, end);
  const inRange = analysis.diagnostics.filter((d) => d.start < end && Math.max(d.end, d.start + 1) > start);

  const s = analysis.summary;
  const verdict = s.errors > 0 ? `FAIL: ${summarySentence(s)}` : `ok: ${summarySentence(s)}`;
  const caption = [
    req.name,
    `bytes ${hex(start)}..${hex(end)} (${end - start} of ${bytes.length})${end < requestedEnd ? `, cut from ${hex(requestedEnd)}` : ""}`,
    `SHA-256 ${req.sha256}`,
    ...(req.redactedFrom ? [`redacted copy of SHA-256 ${req.redactedFrom} (payloads replaced, findings kept)`] : []),
    `verdict ${verdict}`,
  ];
  const captionLines = caption.flatMap((line) => wrap(line, WRAP));
  const top = 12 + captionLines.length * 16 + 8;
  const firstRow = start - (start % 16);
  const rows = end > start ? Math.ceil((end - firstRow) / 16) : 0;
  const gridBottom = top + rows * ROW;

  const body: string[] = [];
  const marks: string[] = [];
  const boundaries: string[] = [];
  const kindsSeen = new Set<number>();
  for (let r = 0; r < rows; r++) {
    const rowStart = firstRow + 16 * r;
    const y = top + r * ROW;
    body.push(`<text x="8" y="${y + 13}" fill="#555">${hexOffset(rowStart, 8, "")}</text>`);
    let ascii = "";
    for (let i = 0; i < 16; i++) {
      const o = rowStart + i;
      if (o < start || o >= end) {
        ascii += " ";
        continue;
      }
      const k = kinds[o - start] as number;
      kindsSeen.add(k);
      const x = HEX_X + i * CELL;
      const b = bytes[o] as number;
      body.push(
        `<rect x="${x}" y="${y}" width="${CELL}" height="${ROW}" fill="${palette.bg[ALL_BYTE_KINDS[k] as ByteKind]}"/>`,
        `<text x="${x + 4}" y="${y + 13}" fill="${palette.fg}">${b.toString(16).padStart(2, "0")}</text>`,
      );
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".";
      const severity = RANK_SEVERITY[problems[o - start] as number];
      if (severity) marks.push(markRect(severity, x + 1, y + 1, CELL - 2, ROW - 2, `class="mark mark-${severity}" data-offset="${o}"`));
      if (edges[o - start]) boundaries.push(`<line x1="${x}" y1="${y}" x2="${x}" y2="${y + ROW}" stroke="#000" stroke-width="2"/>`);
    }
    body.push(`<text x="${ASCII_X}" y="${y + 13}" fill="#333" xml:space="preserve">${xmlMarkup(ascii)}</text>`);
  }

  // Legend: the kinds drawn, then the mark of each severity; then the findings in range.
  const legend: string[] = [];
  let ly = gridBottom + 24;
  const seen = ALL_BYTE_KINDS.map((k, i) => [k, i] as const).filter(([, i]) => kindsSeen.has(i));
  seen.forEach(([k], i) => {
    const x = 8 + (i % 2) * 290;
    const y = ly + Math.floor(i / 2) * 18;
    legend.push(
      `<rect x="${x}" y="${y - 11}" width="12" height="12" fill="${palette.bg[k]}" stroke="#777"/>`,
      `<text x="${x + 18}" y="${y}">${xmlText(`${k.split(".")[0] === "unattributed" ? "" : k.split(".")[0] + " "}${describeKind(k).name}`)}</text>`,
    );
  });
  ly += Math.ceil(seen.length / 2) * 18 + 8;
  (["error", "warning", "info"] as const).forEach((sev, i) => {
    const x = 8 + i * 200;
    legend.push(markRect(sev, x, ly - 11, 18, 14, `class="mark-sample"`), `<text x="${x + 24}" y="${ly}">${sev} byte</text>`);
  });
  ly += 24;
  const listed = inRange.slice(0, MAX_LISTED);
  for (const d of listed) {
    for (const line of wrap(`${d.severity} ${hex(d.start)}..${hex(d.end)} ${d.code}: ${d.message}`, WRAP)) {
      legend.push(`<text x="8" y="${ly}">${xmlText(line)}</text>`);
      ly += 16;
    }
  }
  if (inRange.length > listed.length) {
    legend.push(`<text x="8" y="${ly}">${inRange.length - listed.length} more findings in this range</text>`);
    ly += 16;
  }
  if (inRange.length === 0) {
    legend.push(`<text x="8" y="${ly}">No finding in this range.</text>`);
    ly += 16;
  }
  const height = ly + 8;

  const captionText = captionLines.map((line, i) => `<text x="8" y="${22 + i * 16}"${i === 0 ? ' font-weight="bold"' : ""}>${xmlText(line)}</text>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(WIDTH)}" height="${Math.ceil(height)}" viewBox="0 0 ${WIDTH} ${height}" font-family="ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="12">`,
    `<title>${xmlText(caption.join(" · "))}</title>`,
    patterns(),
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<g class="caption" fill="#111">${captionText.join("")}</g>`,
    `<g class="bytes">${body.join("")}</g>`,
    `<g class="boundaries">${boundaries.join("")}</g>`,
    `<g class="marks">${marks.join("")}</g>`,
    `<g class="legend" fill="#111">${legend.join("")}</g>`,
    "</svg>",
  ].join("\n");
}

/** The range a picture shows by default: the rows around the first finding (at most 1 KiB), else the first 512 bytes. */
export function defaultPictureRange(analysis: Analysis): { start: number; end: number } {
  const d = analysis.diagnostics[0];
  if (!d) return { start: 0, end: Math.min(analysis.size, 512) };
  const start = Math.max(0, d.start - (d.start % 16) - 32);
  const last = Math.min(analysis.size, Math.max(d.end, d.start + 1)) - 1;
  const end = Math.min(analysis.size, start + 1024, last - (last % 16) + 16 + 64);
  return { start, end: Math.max(end, Math.min(analysis.size, start + 16)) };
}
