/** The field a byte belongs to: its kind, its whole range, and the batch and frame around it. */
import { partitionPoint, upperBound } from "../../lib/binary-search.ts";
import { locateByte, storedPayloadLength, type InputWindows } from "../../core/view/byte-map.ts";
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type ByteKind, type FieldSpec } from "../../format/fields.ts";
import { CONTAINER_TABLES } from "../../format/containers/index.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { frameEnd as endOfFrame, frameIndexInBatch } from "../../core/model/frame-columns.ts";

/** A byte's field, placed in the input. Ranges are half-open and clamped to what the input holds. */
export interface FieldHit {
  readonly offset: number;
  readonly kind: ByteKind;
  /** The whole field (e.g. the 8 bytes of base_offset, the whole payload, a run of unattributed bytes). */
  readonly start: number;
  readonly end: number;
  /** The fixed-size header field, or null for payload, user headers and unattributed bytes. */
  readonly spec: FieldSpec | null;
  /** Batch index, or -1. */
  readonly batch: number;
  readonly batchStart: number;
  /** Index in the frame columns of a complete frame, or -1 (header bytes, truncated frames, gaps). */
  readonly frame: number;
  /** Start and end of the frame holding the byte (complete or truncated), or -1. */
  readonly frameStart: number;
  readonly frameEnd: number;
  /** Position of that frame inside its batch (a truncated frame comes after the complete ones), or -1. */
  readonly frameInBatch: number;
  /** True when the frame holding the byte runs past its blob or the input. */
  readonly truncated: boolean;
  /** The container field holding the byte (a segment's index entry, a SendMessages identifier, …), or null. */
  readonly container: ContainerField | null;
}

const BATCH_SPEC = new Map(BATCH_HEADER_FIELDS.map((f) => [f.kind, f]));
const FRAME_SPEC = new Map(FRAME_HEADER_FIELDS.map((f) => [f.kind, f]));
const CONTAINER_SPEC = new Map<ByteKind, FieldSpec>(CONTAINER_TABLES.flatMap((t) => t.fields.map((f) => [f.kind, f] as const)));

/** The field table row of a container kind, or null for its variable parts (payload, identifier values, …). */
export function containerSpec(kind: ByteKind): FieldSpec | null {
  return CONTAINER_SPEC.get(kind) ?? null;
}

const NO_FIELDS: readonly ContainerField[] = [];

/** Keeps an unattributed run between the container fields around it. */
function clampToContainer([start, end]: [number, number], fields: readonly ContainerField[], offset: number): [number, number] {
  if (fields.length === 0) return [start, end];
  const i = partitionPoint(0, fields.length, (k) => (fields[k] as ContainerField).start <= offset);
  const prev = fields[i - 1];
  const next = fields[i];
  return [prev && prev.end <= offset ? Math.max(start, prev.end) : start, next ? Math.min(end, next.start) : end];
}

/** The run of unattributed bytes around `offset`: bounded by the nearest batch, header or frame. */
function unattributedRun(analysis: Analysis, offset: number, batch: number): [number, number] {
  const batches = analysis.batches;
  if (batch < 0) {
    const lo = partitionPoint(0, batches.length, (k) => batches.start(k) <= offset);
    const prev = batches.at(lo - 1);
    const next = batches.at(lo);
    return [prev ? Math.min(offset, prev.end) : 0, next ? next.start : analysis.size];
  }
  const b = batches.at(batch) as BatchModel;
  let lo = b.start + BATCH_HEADER_SIZE;
  let hi = b.end;
  const f = analysis.frames;
  const next = upperBound(f.start, offset, b.firstFrame, b.firstFrame + b.frameCount);
  if (next > b.firstFrame) lo = Math.max(lo, endOfFrame(f, next - 1));
  if (next < b.firstFrame + b.frameCount) hi = Math.min(hi, f.start[next] as number);
  const t = b.truncatedFrame;
  if (t && t.end <= offset) lo = Math.max(lo, t.end);
  if (t && t.start > offset) hi = Math.min(hi, t.start);
  return [Math.min(lo, offset), Math.max(hi, offset + 1)];
}

/** The container field holding `offset`, by binary search over fields sorted by start. */
function containerFieldOf(fields: readonly ContainerField[], offset: number): ContainerField | null {
  const i = partitionPoint(0, fields.length, (k) => (fields[k] as ContainerField).start <= offset) - 1;
  const f = i >= 0 ? fields[i] : undefined;
  return f && offset < f.end ? f : null;
}

/**
 * Finds the field of byte `offset` (0 ≤ offset < analysis.size): one lookup in the model, no scan.
 * Container fields (sorted by start, as openInput gives them) come first: they lie outside the batches.
 * `bytes` need only hold kindNeeds(offset, offset + 1): the ranges are read from the model.
 */
export function fieldAt(analysis: Analysis, bytes: InputWindows, offset: number, container: readonly ContainerField[] = NO_FIELDS): FieldHit {
  const c = container.length > 0 && offset >= 0 && offset < analysis.size ? containerFieldOf(container, offset) : null;
  if (c) {
    const spec = containerSpec(c.kind);
    return {
      offset,
      kind: c.kind,
      start: c.start,
      end: c.end,
      spec: spec && spec.size === c.end - c.start ? spec : null,
      batch: -1,
      batchStart: -1,
      frame: -1,
      frameStart: -1,
      frameEnd: -1,
      frameInBatch: -1,
      truncated: false,
      container: c,
    };
  }
  const loc = locateByte(analysis, bytes, offset);
  const batch = loc.batch >= 0 ? (analysis.batches.at(loc.batch) as BatchModel) : null;
  const base = {
    offset,
    kind: loc.kind,
    batch: loc.batch,
    batchStart: batch ? batch.start : -1,
    frame: loc.frame,
    frameStart: -1,
    frameEnd: -1,
    frameInBatch: -1,
    truncated: false,
    container: null,
  };
  const batchSpec = BATCH_SPEC.get(loc.kind);
  if (batch && batchSpec && offset - batch.start < BATCH_HEADER_SIZE) {
    const start = batch.start + batchSpec.offset;
    return { ...base, spec: batchSpec, start, end: Math.min(start + batchSpec.size, batch.end) };
  }
  if (loc.kind === "unattributed" || loc.frameStart < 0 || !batch) {
    const [start, end] = clampToContainer(unattributedRun(analysis, offset, loc.batch), container, offset);
    return { ...base, kind: "unattributed", spec: null, start, end };
  }
  const frameStart = loc.frameStart;
  const complete = loc.frame >= 0;
  const frameEnd = complete ? endOfFrame(analysis.frames, loc.frame) : (batch.truncatedFrame?.end ?? offset + 1);
  const frameInBatch = complete ? frameIndexInBatch(analysis.batches, loc.frame) : batch.frameCount;
  const framePart = { ...base, frameStart, frameEnd, frameInBatch, truncated: !complete };
  const frameSpec = FRAME_SPEC.get(loc.kind);
  if (frameSpec) {
    const start = frameStart + frameSpec.offset;
    return { ...framePart, spec: frameSpec, start, end: Math.min(start + frameSpec.size, frameEnd) };
  }
  const payloadLength = complete ? (analysis.frames.payloadLength[loc.frame] as number) : (storedPayloadLength(bytes, frameStart) ?? Infinity);
  // A truncated frame whose header is not in the windows reads as payload to its end, as locateByte does.
  const payloadEnd = Math.min(frameStart + FRAME_HEADER_SIZE + payloadLength, frameEnd);
  if (loc.kind === "frame.payload") return { ...framePart, spec: null, start: frameStart + FRAME_HEADER_SIZE, end: payloadEnd };
  return { ...framePart, spec: null, start: payloadEnd, end: frameEnd };
}
