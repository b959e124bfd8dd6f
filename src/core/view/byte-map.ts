/** What every byte of the input is: the field kind at each offset, found from the model by binary search. */
import {
  ALL_BYTE_KINDS,
  BATCH_HEADER_FIELDS,
  BATCH_HEADER_SIZE,
  FRAME_FIELD,
  FRAME_HEADER_FIELDS,
  FRAME_HEADER_SIZE,
  type ByteKind,
} from "../../format/fields.ts";
import { readField } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { partitionPoint } from "../../lib/binary-search.ts";
import type { ByteWindow } from "../../lib/input-bytes.ts";
import type { Analysis, BatchModel } from "../model/model.ts";
import { batchAt, frameAt } from "./frame-view.ts";
import { frameEnd } from "../model/frame-columns.ts";

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

/**
 * The bytes the pure helpers read: the whole input in memory, or windows of it with absolute offsets
 * (an input read on demand). A read outside every window finds nothing.
 */
export type InputWindows = Uint8Array | ByteWindow | readonly ByteWindow[];

/** Bytes [start, end) when one of the windows holds them all, else null (a whole input holds every in-range read). */
export function bytesIn(bytes: InputWindows, start: number, end: number): Uint8Array | null {
  if (bytes instanceof Uint8Array) return start >= 0 && end <= bytes.length && start <= end ? bytes.subarray(start, end) : null;
  for (const w of Array.isArray(bytes) ? (bytes as readonly ByteWindow[]) : [bytes as ByteWindow]) {
    if (start >= w.start && end <= w.start + w.bytes.length && start <= end) return w.bytes.subarray(start - w.start, end - w.start);
  }
  return null;
}

/** The payload_length a frame header at `frameStart` stores, or null when its bytes are not in the windows. */
export function storedPayloadLength(bytes: InputWindows, frameStart: number): number | null {
  const spec = FRAME_FIELD.payload_length;
  const field = bytesIn(bytes, frameStart + spec.offset, frameStart + spec.offset + spec.size);
  return field ? readField(new ByteReader(field), -spec.offset, spec) : null;
}

/**
 * The byte ranges the kinds of [start, end) are read from: the payload_length of each truncated frame
 * over the range (complete frames' lengths are in the model). Empty for most ranges; an input read on
 * demand peeks or loads these before asking locateByte or fillKinds about the range.
 */
export function kindNeeds(analysis: Analysis, start: number, end: number): { start: number; end: number }[] {
  const spec = FRAME_FIELD.payload_length;
  const batches = analysis.batches;
  const out: { start: number; end: number }[] = [];
  for (let i = partitionPoint(0, batches.length, (k) => batches.end(k) <= start); i < batches.length; i++) {
    if (batches.start(i) >= end) break;
    const t = batches.truncatedFrame(i);
    if (t && t.headerComplete && Math.max(start, t.start + FRAME_HEADER_SIZE) < Math.min(end, t.end))
      out.push({ start: t.start + spec.offset, end: t.start + spec.offset + spec.size });
  }
  return out;
}

// A truncated frame whose payload_length is not in the windows: its body reads as payload (kindNeeds says what to read first).
function partialFrameKind(bytes: InputWindows, frameStart: number, offset: number, headerComplete: boolean): number {
  const rel = offset - frameStart;
  if (rel < FRAME_HEADER_SIZE) return FRAME_HEADER_KIND[rel] as number;
  if (!headerComplete) return KIND_CODE.unattributed;
  const payloadLength = storedPayloadLength(bytes, frameStart) ?? Infinity;
  return rel < FRAME_HEADER_SIZE + payloadLength ? KIND_CODE["frame.payload"] : KIND_CODE["frame.user_headers"];
}

/** Locates one byte of the input in the model; `bytes` need only hold kindNeeds(offset, offset + 1). */
export function locateByte(analysis: Analysis, bytes: InputWindows, offset: number): ByteLocation {
  const b = batchAt(analysis, offset);
  if (b < 0) return { kind: "unattributed", batch: -1, frame: -1, frameStart: -1 };
  const batch = analysis.batches.at(b) as BatchModel;
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
    return { kind: ALL_BYTE_KINDS[partialFrameKind(bytes, t.start, offset, t.headerComplete)] as ByteKind, batch: b, frame: -1, frameStart: t.start };
  }
  return { kind: "unattributed", batch: b, frame: -1, frameStart: -1 };
}

/**
 * Fills out[i] with the kind code of byte start + i, and frameEdge[i] with 1 where a
 * batch or frame starts; one binary search per call, then a forward sweep. `bytes` need only hold
 * kindNeeds(start, end).
 */
export function fillKinds(analysis: Analysis, bytes: InputWindows, start: number, end: number, out: Uint8Array, frameEdge: Uint8Array): void {
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
    } else if (loc.batch >= 0 && i - analysis.batches.start(loc.batch) < BATCH_HEADER_SIZE) {
      const bs = analysis.batches.start(loc.batch);
      unitEnd = Math.min(end, bs + BATCH_HEADER_SIZE, analysis.batches.end(loc.batch));
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
