/**
 * A picture of one header: the layout diagram of a batch header or a frame header as a standalone
 * SVG (no DOM needed), drawn from the field table as the page draws it (16 bytes a line, boxes to
 * scale, values filled in), in the palette's colours, with a hatched and outlined mark on every
 * field a finding touches (so it survives print and grey scale) and a caption (name, which batch or
 * frame, byte range, SHA-256, verdict).
 */
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type ByteKind, type FieldSpec } from "../../format/fields.ts";
import { hexOffset } from "../../format/values.ts";
import type { Diagnostic, Severity } from "../../format/diagnostics.ts";
import { batchFieldValue, DIAGRAM_COLUMNS, diagramBoxes, frameFieldValue, type DiagramBox } from "../view/diagram-boxes.ts";
import { markRect, patterns, problemBytes, RANK_SEVERITY, wrap, xmlText, type SvgPalette } from "./render-svg.ts";
import type { Analysis } from "../model/model.ts";
import { summarySentence } from "./summary-text.ts";
import { frameBatch, frameEnd, frameIndexInBatch, frameUserHeadersLength } from "../model/frame-columns.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";

/** Which header to draw: a batch by index, or a frame by its index across the input. */
export type DiagramTarget = { readonly kind: "batch"; readonly batch: number } | { readonly kind: "frame"; readonly frame: number };

/** What the caption names, and which header to draw. */
export interface DiagramRequest {
  readonly name: string;
  /** Lowercase hex SHA-256 of the input drawn. */
  readonly sha256: string;
  readonly target: DiagramTarget;
  readonly palette: SvgPalette;
  /** The SHA-256 of the original, when the input drawn is a redacted copy of it. */
  readonly redactedFrom?: string;
}

const BYTE_W = 46;
const LINE_H = 44;
const GRID_X = 84;
const WIDTH = GRID_X + DIAGRAM_COLUMNS * BYTE_W + 12;
const CHAR = 6.7;
const WRAP = Math.floor((WIDTH - 16) / 7.4);
const MAX_LISTED = 12;
const BATCH_BOXES = diagramBoxes(BATCH_HEADER_FIELDS);
const FRAME_BOXES = diagramBoxes(FRAME_HEADER_FIELDS);

const hex = (n: number) => hexOffset(n, 0);
const fit = (text: string, width: number) => {
  const n = Math.max(1, Math.floor((width - 8) / CHAR));
  return text.length <= n ? text : `${text.slice(0, Math.max(0, n - 1))}…`;
};

/** The header a target names, or why there is none to draw. */
interface Drawn {
  readonly title: string;
  readonly base: number;
  readonly boxes: readonly DiagramBox[];
  readonly fields: readonly FieldSpec[];
  readonly headerSize: number;
  /** Where the whole batch or frame lies (for the caption and the findings listed). */
  readonly span: { start: number; end: number };
  readonly value: (f: FieldSpec) => string;
  /** The frame's variable parts, drawn under its header. */
  readonly parts: readonly { kind: ByteKind; name: string; start: number; end: number }[];
}

function drawnOf(analysis: Analysis, bytes: Uint8Array, target: DiagramTarget): Drawn | string {
  if (target.kind === "batch") {
    const b = analysis.batches.at(target.batch);
    if (!b) return `There is no batch ${target.batch} (the input has ${analysis.batches.length}).`;
    if (!b.header) return `Batch ${target.batch} has no whole header to draw.`;
    return {
      title: `Batch ${target.batch} header`,
      base: b.start,
      boxes: BATCH_BOXES,
      fields: BATCH_HEADER_FIELDS,
      headerSize: BATCH_HEADER_SIZE,
      span: { start: b.start, end: b.end },
      value: (f) => batchFieldValue(analysis, wholeWindow(bytes), target.batch, f) ?? "—",
      parts: [],
    };
  }
  const f = analysis.frames;
  const i = target.frame;
  if (!Number.isInteger(i) || i < 0 || i >= f.count) return `There is no frame ${i} (the input has ${f.count}).`;
  const start = f.start[i] as number;
  const payloadEnd = start + FRAME_HEADER_SIZE + (f.payloadLength[i] as number);
  return {
    title: `Frame ${frameIndexInBatch(analysis.batches, i)} of batch ${frameBatch(analysis.batches, i)} header (frame ${i} of the input)`,
    base: start,
    boxes: FRAME_BOXES,
    fields: FRAME_HEADER_FIELDS,
    headerSize: FRAME_HEADER_SIZE,
    span: { start, end: frameEnd(f, i) },
    value: (field) => frameFieldValue(analysis, wholeWindow(bytes), i, field) ?? "—",
    parts: [
      { kind: "frame.payload", name: "payload", start: start + FRAME_HEADER_SIZE, end: payloadEnd },
      { kind: "frame.user_headers", name: "user_headers", start: payloadEnd, end: payloadEnd + frameUserHeadersLength(f, i) },
    ],
  };
}

/** The worst severity of the findings touching [start, end) (an empty finding marks the byte it points at), or null: a field's mark. */
export function fieldSeverity(diagnostics: readonly Diagnostic[], start: number, end: number): Severity | null {
  const ranks = problemBytes(diagnostics, start, end);
  let top = 0;
  for (const r of ranks) if (r > top) top = r;
  return RANK_SEVERITY[top] ?? null;
}

/** Renders the target's header as an SVG document (UTF-8 text). */
export function renderLayoutSvg(analysis: Analysis, bytes: Uint8Array, req: DiagramRequest): string {
  const { palette } = req;
  const drawn = drawnOf(analysis, bytes, req.target);
  const s = analysis.summary;
  const verdict = `verdict ${s.errors > 0 ? "FAIL" : "ok"}: ${summarySentence(s)}`;
  const caption = [
    req.name,
    typeof drawn === "string"
      ? drawn
      : `${drawn.title}: bytes ${hex(drawn.base)}..${hex(drawn.base + drawn.headerSize)}, of the ${req.target.kind} at ${hex(drawn.span.start)}..${hex(drawn.span.end)}; 16 bytes a line`,
    `SHA-256 ${req.sha256}`,
    ...(req.redactedFrom ? [`redacted copy of SHA-256 ${req.redactedFrom} (payloads replaced, findings kept)`] : []),
    verdict,
  ];
  const captionLines = caption.flatMap((line) => wrap(line, WRAP));
  const top = 12 + captionLines.length * 16 + 8;
  const body: string[] = [];
  const marks: string[] = [];
  let y = top;
  let inRange: Diagnostic[] = [];

  if (typeof drawn !== "string") {
    const { base } = drawn;
    inRange = analysis.diagnostics.filter((d) => d.start < drawn.span.end && Math.max(d.end, d.start + 1) > drawn.span.start);
    // Lines as the page lays them out: a box at column 0 starts a line; a folded box is one line.
    const lineOf: number[] = [];
    let line = -1;
    for (const b of drawn.boxes) {
      if (b.column === 0) {
        line++;
        body.push(`<text x="8" y="${top + line * LINE_H + 26}" fill="#555">${hexOffset(base + b.offset, 8, "")}</text>`);
      }
      lineOf.push(line);
    }
    for (const field of drawn.fields) {
      const pieces = drawn.boxes.map((b, i) => [b, lineOf[i] as number] as const).filter(([b]) => b.field === field);
      const start = base + field.offset;
      const severity = fieldSeverity(analysis.diagnostics, start, start + field.size);
      const value = drawn.value(field);
      const g: string[] = [
        `<title>${xmlText(`${field.name}: ${value} (bytes ${hex(start)}..${hex(start + field.size)}, ${field.size} B${severity ? `; ${severity}` : ""})`)}</title>`,
      ];
      for (const [b, l] of pieces) {
        const x = GRID_X + b.column * BYTE_W + 1;
        const by = top + l * LINE_H + 1;
        const w = Math.min(b.size, DIAGRAM_COLUMNS) * BYTE_W - 2;
        g.push(`<rect x="${x}" y="${by}" width="${w}" height="${LINE_H - 2}" rx="3" fill="${palette.bg[field.kind]}" stroke="#777" stroke-width="0.6"/>`);
        const lines = b.first
          ? [`<tspan font-weight="bold">${xmlText(fit(field.name, w))}</tspan>`, xmlText(fit(value, w)), xmlText(fit(`+${b.offset} · ${field.size} B`, w))]
          : [xmlText(fit(b.lines > 1 ? `… ${b.size} more bytes (${b.lines} lines)` : "…", w))];
        lines.forEach((t, k) => g.push(`<text x="${x + 4}" y="${by + 13 + k * 13}" fill="${palette.fg}"${k === 2 ? ' font-size="10"' : ""}>${t}</text>`));
        if (severity)
          marks.push(
            markRect(
              severity,
              x + 1,
              by + 1,
              w - 2,
              LINE_H - 4,
              `class="mark mark-${severity}" data-field="${xmlText(field.name)}" data-offset="${base + b.offset}"`,
            ),
          );
      }
      body.push(
        `<g class="field" data-field="${xmlText(field.name)}" data-offset="${start}" data-size="${field.size}"${severity ? ` data-severity="${severity}"` : ""}>${g.join("")}</g>`,
      );
    }
    y = top + (line + 1) * LINE_H;
    // The frame's payload and user headers, under its header, half a line each as on the page.
    const half = (DIAGRAM_COLUMNS * BYTE_W) / 2;
    drawn.parts.forEach((p, k) => {
      const x = GRID_X + k * half + 1;
      const severity = fieldSeverity(analysis.diagnostics, p.start, Math.max(p.end, p.start));
      const text = `${p.name} · ${p.end - p.start} B at ${hex(p.start)}`;
      body.push(
        `<g class="part" data-part="${p.name}" data-offset="${p.start}" data-size="${p.end - p.start}"><rect x="${x}" y="${y + 1}" width="${half - 2}" height="22" rx="3" fill="${palette.bg[p.kind]}" stroke="#777" stroke-width="0.6"/>`,
        `<text x="${x + 4}" y="${y + 16}" fill="${palette.fg}">${xmlText(fit(text, half - 2))}</text></g>`,
      );
      if (severity && p.end > p.start)
        marks.push(markRect(severity, x + 1, y + 2, half - 4, 20, `class="mark mark-${severity}" data-part="${p.name}" data-offset="${p.start}"`));
    });
    if (drawn.parts.length > 0) y += 24;
  }

  // Legend: the mark of each severity, then the findings on this batch or frame.
  const legend: string[] = [];
  let ly = y + 24;
  (["error", "warning", "info"] as const).forEach((sev, i) => {
    const x = 8 + i * 200;
    legend.push(markRect(sev, x, ly - 11, 18, 14, `class="mark-sample"`), `<text x="${x + 24}" y="${ly}">${sev} field</text>`);
  });
  ly += 24;
  const listed = inRange.slice(0, MAX_LISTED);
  for (const d of listed) {
    for (const text of wrap(`${d.severity} ${hex(d.start)}..${hex(d.end)} ${d.code}: ${d.message}`, WRAP)) {
      legend.push(`<text x="8" y="${ly}">${xmlText(text)}</text>`);
      ly += 16;
    }
  }
  if (inRange.length > listed.length) {
    legend.push(`<text x="8" y="${ly}">${inRange.length - listed.length} more findings on this ${req.target.kind}</text>`);
    ly += 16;
  }
  if (typeof drawn !== "string" && inRange.length === 0) {
    legend.push(`<text x="8" y="${ly}">No finding on this ${req.target.kind}.</text>`);
    ly += 16;
  }
  const height = ly + 8;
  const captionText = captionLines.map((text, i) => `<text x="8" y="${22 + i * 16}"${i === 0 ? ' font-weight="bold"' : ""}>${xmlText(text)}</text>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="11">`,
    `<title>${xmlText(caption.join(" · "))}</title>`,
    patterns(),
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<g class="caption" fill="#111" font-size="12">${captionText.join("")}</g>`,
    `<g class="fields">${body.join("")}</g>`,
    `<g class="marks">${marks.join("")}</g>`,
    `<g class="legend" fill="#111" font-size="12">${legend.join("")}</g>`,
    "</svg>",
  ].join("\n");
}

/** The target the page's diagram shows for a selection: its frame, else its batch, else batch 0. */
export function diagramTargetOf(selection: { batch: number; frame: number } | null): DiagramTarget {
  if (selection && selection.frame >= 0) return { kind: "frame", frame: selection.frame };
  return { kind: "batch", batch: selection && selection.batch >= 0 ? selection.batch : 0 };
}
