/** Pictures of the bytes on the page: the core's SVG of a range or of a header's layout diagram in the theme's colours, and a PNG drawn from either on a canvas. */
import { defaultPictureRange, MAX_SVG_BYTES, renderHexSvg } from "../../core/report/render-svg.ts";
import { renderLayoutSvg, type DiagramTarget } from "../../core/report/render-diagram.ts";
import { LIGHT_PALETTE } from "../../core/view/palette.ts";
import type { Subject } from "./share-link.ts";

/** The range a picture shows: the selection (cut to MAX_SVG_BYTES), else the rows around the first finding. */
export function pictureRange(subject: Subject, selection: { start: number; end: number } | null): { start: number; end: number } {
  if (!selection) return defaultPictureRange(subject.analysis);
  const end = Math.max(selection.end, selection.start + 1);
  return { start: selection.start, end: Math.min(end, selection.start + MAX_SVG_BYTES) };
}

/** The SVG document of a range of the subject. */
export function pictureSvg(subject: Subject, name: string, range: { start: number; end: number }): string {
  return renderHexSvg(subject.analysis, subject.bytes, {
    name,
    sha256: subject.sha256,
    start: range.start,
    end: range.end,
    palette: LIGHT_PALETTE,
    redactedFrom: subject.redacted?.originalSha256,
  });
}

/** The SVG document of the layout diagram of one batch or frame header of the subject. */
export function diagramSvg(subject: Subject, name: string, target: DiagramTarget): string {
  return renderLayoutSvg(subject.analysis, subject.bytes, {
    name,
    sha256: subject.sha256,
    target,
    palette: LIGHT_PALETTE,
    redactedFrom: subject.redacted?.originalSha256,
  });
}

/** Whether the target names a header there is to draw: a batch with a whole header, or a frame of the input. */
export function canDrawDiagram(analysis: Subject["analysis"], target: DiagramTarget): boolean {
  return target.kind === "batch" ? Boolean(analysis.batches.at(target.batch)?.header) : target.frame >= 0 && target.frame < analysis.frames.count;
}

/** Draws an SVG document on a canvas at `scale` and returns it as PNG. */
export async function svgToPng(svg: string, wantedScale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    // Canvases stop at 32,767 px a side: a long range is drawn smaller rather than not at all.
    const scale = Math.min(wantedScale, 32_000 / Math.max(1, img.naturalHeight));
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(img.naturalWidth * scale);
    canvas.height = Math.ceil(img.naturalHeight * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas");
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((done, fail) => canvas.toBlob((b) => (b ? done(b) : fail(new Error("the canvas made no PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}
