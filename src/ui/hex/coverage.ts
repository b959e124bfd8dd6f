/**
 * What a checksum covers, as byte spans. Hovering a checksum shades exactly the bytes it is
 * computed over; hoverStore (one span) cannot say that, so the spans live in their own store.
 */
import type { Analysis, BatchModel } from "../../core/model.ts";
import { BATCH_HEADER_SIZE } from "../../format/fields.ts";
import type { ByteSpan } from "../state/app-state.ts";
import { createStore } from "../state/store.ts";
import type { FieldHit } from "./field-at.ts";

/** The bytes a stored checksum is computed over: disjoint spans sorted by start. */
export interface Coverage {
  readonly of: "frame.checksum" | "batch.batch_checksum";
  /** Start of the checksum field itself. */
  readonly field: number;
  readonly spans: readonly ByteSpan[];
}

/** The coverage of the checksum under the pointer or cursor, or null. */
export const coverageStore = createStore<Coverage | null>(null);

/** Size of a frame's stored checksum, the part of each frame the batch checksum reads. */
const FRAME_CHECKSUM_SIZE = 8;

// Keyed weakly by the analysis, so a replaced input's columns can be collected.
const memo = new WeakMap<Analysis, { field: number; coverage: Coverage }>();

/**
 * The bytes covered by the checksum field `hit` is in, or null when it is not a checksum.
 * Frame checksum: frame bytes 8..end. Batch checksum: header bytes 0..40 and 48..52, then the
 * stored checksum (8 bytes) of each complete frame the walk found (batch-format.md, "Checksums").
 */
export function checksumCoverage(analysis: Analysis, hit: FieldHit): Coverage | null {
  if (hit.kind !== "frame.checksum" && hit.kind !== "batch.batch_checksum") return null;
  const cached = memo.get(analysis);
  if (cached && cached.field === hit.start) return cached.coverage;
  const spans: ByteSpan[] = [];
  if (hit.kind === "frame.checksum") {
    if (hit.frameEnd > hit.frameStart + FRAME_CHECKSUM_SIZE) spans.push({ start: hit.frameStart + FRAME_CHECKSUM_SIZE, end: hit.frameEnd });
  } else {
    const b = analysis.batches[hit.batch] as BatchModel;
    const headerEnd = Math.min(b.end, b.start + BATCH_HEADER_SIZE);
    const push = (start: number, end: number): void => {
      const e = Math.min(end, headerEnd);
      if (e > start) spans.push({ start, end: e });
    };
    push(b.start, b.start + 40);
    push(b.start + 48, b.start + 52);
    const starts = analysis.frames.start;
    for (let i = b.firstFrame; i < b.firstFrame + b.frameCount; i++) {
      const s = starts[i] as number;
      spans.push({ start: s, end: s + FRAME_CHECKSUM_SIZE });
    }
  }
  const coverage: Coverage = { of: hit.kind, field: hit.start, spans };
  memo.set(analysis, { field: hit.start, coverage });
  return coverage;
}

/** Total bytes of a coverage. */
export function coveredBytes(c: Coverage): number {
  return c.spans.reduce((n, s) => n + s.end - s.start, 0);
}
