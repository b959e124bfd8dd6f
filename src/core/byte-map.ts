/** What every byte of the input is: the field kind at each offset, found from the model by binary search. */
import {
  ALL_BYTE_KINDS,
  BATCH_HEADER_FIELDS,
  BATCH_HEADER_SIZE,
  FRAME_FIELD,
  FRAME_HEADER_FIELDS,
  FRAME_HEADER_SIZE,
  type ByteKind,
} from "../format/fields.ts";
import { readField } from "../format/field-codec.ts";
import { ByteReader } from "../format/reader.ts";
import type { Analysis, BatchModel } from "./model.ts";
import { batchAt, frameAt } from "./frame-view.ts";
import { frameEnd } from "./frame-columns.ts";

/** Numeric code of each ByteKind: its index in ALL_BYTE_KINDS. */
export const KIND_CODE: Readonly<Record<ByteKind, number>> = Object.fromEntries(ALL_BYTE_KINDS.map((k, i) => [k, i])) as Record<ByteKind, number>;

// Offset-within-header → kind code, precomputed once: a header byte's kind is a table lookup.
const BATCH_HEADER_KIND = new Uint8Array(BATCH_HEADER_SIZE);
for (const f of BATCH_HEADER_FIELDS) BATCH_HEADER_KIND.fill(KIND_CODE[f.kind], f.offset, f.offset + f.size);
const FRAME_HEADER_KIND = new Uint8Array(FRAME_HEADER_SIZE);
for (const f of FRAME_HEADER_FIELDS) FRAME_HEADER_KIND.fill(KIND_CODE[f.kind], f.offset, f.offset + f.size);

/** Where a byte sits: its kind and the batch and frame (column index) it belongs to. */
export interface ByteLocation {
  readonly kind: ByteKind;
  readonly batch: number;
  /** Index in the frame columns, or -1 for header bytes and truncated frames. */
  readonly frame: number;
  /** Start of the frame (complete or truncated) holding the byte, or -1. */
  readonly frameStart: number;
}

function partialFrameKind(bytes: Uint8Array, frameStart: number, offset: number): number {
  const rel = offset - frameStart;
  if (rel < FRAME_HEADER_SIZE) return FRAME_HEADER_KIND[rel] as number;
  if (frameStart + FRAME_HEADER_SIZE > bytes.length) return KIND_CODE.unattributed;
  const payloadLength = readField(new ByteReader(bytes), frameStart, FRAME_FIELD.payload_length);
  return rel < FRAME_HEADER_SIZE + payloadLength ? KIND_CODE["frame.payload"] : KIND_CODE["frame.user_headers"];
}

/** Locates one byte of the input in the model. */
export function locateByte(analysis: Analysis, bytes: Uint8Array, offset: number): ByteLocation {
  const b = batchAt(analysis, offset);
  if (b < 0) return { kind: "unattributed", batch: -1, frame: -1, frameStart: -1 };
  const batch = analysis.batches[b] as BatchModel;
  const rel = offset - batch.start;
  if (rel < BATCH_HEADER_SIZE) return { kind: ALL_BYTE_KINDS[BATCH_HEADER_KIND[rel] as number] as ByteKind, batch: b, frame: -1, frameStart: -1 };
  const f = frameAt(analysis, offset);
  if (f >= 0) {
    const s = analysis.frames.start[f] as number;
    const r = offset - s;
    const code =
      r < FRAME_HEADER_SIZE
        ? (FRAME_HEADER_KIND[r] as number)
        : r < FRAME_HEADER_SIZE + (analysis.frames.payloadLength[f] as number)
          ? KIND_CODE["frame.payload"]
          : KIND_CODE["frame.user_headers"];
    return { kind: ALL_BYTE_KINDS[code] as ByteKind, batch: b, frame: f, frameStart: s };
  }
  const t = batch.truncatedFrame;
  if (t && offset >= t.start && offset < t.end) {
    return { kind: ALL_BYTE_KINDS[partialFrameKind(bytes, t.start, offset)] as ByteKind, batch: b, frame: -1, frameStart: t.start };
  }
  return { kind: "unattributed", batch: b, frame: -1, frameStart: -1 };
}

/**
 * Fills out[i] with the kind code of byte start + i, and frameEdge[i] with 1 where a
 * batch or frame starts; one binary search per call, then a forward sweep.
 */
export function fillKinds(analysis: Analysis, bytes: Uint8Array, start: number, end: number, out: Uint8Array, frameEdge: Uint8Array): void {
  frameEdge.fill(0, 0, end - start);
  let i = start;
  while (i < end) {
    const loc = locateByte(analysis, bytes, i);
    // Extend the run to the end of the enclosing unit so each unit costs one lookup.
    let unitEnd: number;
    if (loc.frame >= 0) {
      unitEnd = Math.min(end, frameEnd(analysis.frames, loc.frame));
      const s = loc.frameStart;
      for (let k = i; k < unitEnd; k++) {
        const r = k - s;
        out[k - start] =
          r < FRAME_HEADER_SIZE
            ? (FRAME_HEADER_KIND[r] as number)
            : r < FRAME_HEADER_SIZE + (analysis.frames.payloadLength[loc.frame] as number)
              ? KIND_CODE["frame.payload"]
              : KIND_CODE["frame.user_headers"];
      }
      if (s >= start) frameEdge[s - start] = 1;
    } else if (loc.batch >= 0 && i - (analysis.batches[loc.batch] as BatchModel).start < BATCH_HEADER_SIZE) {
      const bs = (analysis.batches[loc.batch] as BatchModel).start;
      unitEnd = Math.min(end, bs + BATCH_HEADER_SIZE, (analysis.batches[loc.batch] as BatchModel).end);
      for (let k = i; k < unitEnd; k++) out[k - start] = BATCH_HEADER_KIND[k - bs] as number;
      if (bs >= start) frameEdge[bs - start] = 1;
    } else {
      out[i - start] = KIND_CODE[loc.kind];
      if (loc.frameStart === i) frameEdge[i - start] = 1;
      unitEnd = i + 1;
    }
    i = unitEnd;
  }
}
