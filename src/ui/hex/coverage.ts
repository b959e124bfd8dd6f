/**
 * What a checksum covers, as byte spans. Hovering a checksum shades exactly the bytes it is
 * computed over; hoverStore (one span) cannot say that, so the spans live in their own store.
 */
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import { batchChecksumSpans, frameChecksumSpan } from "../../checksum/verify.ts";
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

// Keyed weakly by the analysis, so a replaced input's columns can be collected.
const memo = new WeakMap<Analysis, { field: number; coverage: Coverage }>();

/**
 * The bytes covered by the checksum field `hit` is in, or null when it is not a checksum;
 * src/checksum/verify.ts says which bytes each checksum reads.
 */
export function checksumCoverage(analysis: Analysis, hit: FieldHit): Coverage | null {
  if (hit.kind !== "frame.checksum" && hit.kind !== "batch.batch_checksum") return null;
  const cached = memo.get(analysis);
  if (cached && cached.field === hit.start) return cached.coverage;
  let spans: ByteSpan[];
  if (hit.kind === "frame.checksum") {
    const span = frameChecksumSpan(hit.frameStart, hit.frameEnd);
    spans = span ? [span] : [];
  } else {
    const b = analysis.batches.at(hit.batch) as BatchModel;
    spans = batchChecksumSpans(b.start, Math.min(b.end, b.start + BATCH_HEADER_SIZE), analysis.frames.start, b.firstFrame, b.firstFrame + b.frameCount);
  }
  const coverage: Coverage = { of: hit.kind, field: hit.start, spans };
  memo.set(analysis, { field: hit.start, coverage });
  return coverage;
}

/** Total bytes of a coverage. */
export function coveredBytes(c: Coverage): number {
  return c.spans.reduce((n, s) => n + s.end - s.start, 0);
}
