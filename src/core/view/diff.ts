/** A field-by-field diff of two batches: what the server changed when it stamped a batch, or what an edit did. */
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE, type FieldSpec } from "../../format/fields.ts";
import { readField } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { bytesToHex } from "../../format/values.ts";
import type { Analysis } from "../model/model.ts";
import { byteDiff, byteDiffText, type ByteDiff, type DiffRun } from "./byte-diff.ts";
import { frameEnd } from "../model/frame-columns.ts";

/** One compared field: where it is, both renderings, and whether they are equal. */
export interface DiffRow {
  readonly scope: string;
  readonly field: string;
  readonly left: string;
  readonly right: string;
  readonly same: boolean;
  /** For payloads and user headers: both sides' bytes and where they differ. */
  readonly bytes?: { readonly left: Uint8Array; readonly right: Uint8Array; readonly diff: ByteDiff; readonly note: string };
  /** Where the compared field sits in each side's bytes (null where that side lacks it), so both hex panes can mark it. */
  readonly spans?: { readonly left: DiffRun | null; readonly right: DiffRun | null };
}

/** A batch in an analysed input. */
export interface BatchRef {
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
  readonly batch: number;
}

function fieldText(bytes: Uint8Array, base: number, spec: FieldSpec): string {
  const r = new ByteReader(bytes);
  if (!r.has(base + spec.offset, spec.size)) return "—";
  // Integers in decimal, wider values (the u128 id, reserved bytes) as hex in wire order.
  if (spec.type === "u128" || spec.type === "bytes") return bytesToHex(r.slice(base + spec.offset, base + spec.offset + spec.size));
  return String(readField(r, base, spec));
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Compares two batches field by field, frame by frame (frames paired by position). */
export function diffBatches(left: BatchRef, right: BatchRef): DiffRow[] {
  const rows: DiffRow[] = [];
  const lb = left.analysis.batches.at(left.batch);
  const rb = right.analysis.batches.at(right.batch);
  if (!lb || !rb) return rows;
  const push = (scope: string, field: string, l: string, r: string, spans?: DiffRow["spans"]) =>
    rows.push({ scope, field, left: l, right: r, same: l === r, ...(spans ? { spans } : {}) });
  // A field's bytes in one side, clamped to the input; null when the field is absent there.
  const spanOf = (bytes: Uint8Array, base: number, spec: FieldSpec): DiffRun | null =>
    base < 0 || base + spec.offset >= bytes.length ? null : { start: base + spec.offset, end: Math.min(bytes.length, base + spec.offset + spec.size) };
  for (const f of BATCH_HEADER_FIELDS) {
    push("batch", f.name, fieldText(left.bytes, lb.start, f), fieldText(right.bytes, rb.start, f), {
      left: spanOf(left.bytes, lb.start, f),
      right: spanOf(right.bytes, rb.start, f),
    });
  }
  push("batch", "complete frames", String(lb.frameCount), String(rb.frameCount));
  const frames = Math.max(lb.frameCount, rb.frameCount);
  for (let k = 0; k < frames; k++) {
    const li = k < lb.frameCount ? lb.firstFrame + k : -1;
    const ri = k < rb.frameCount ? rb.firstFrame + k : -1;
    const ls = li >= 0 ? (left.analysis.frames.start[li] as number) : -1;
    const rs = ri >= 0 ? (right.analysis.frames.start[ri] as number) : -1;
    for (const f of FRAME_HEADER_FIELDS) {
      push(`frame ${k}`, f.name, ls < 0 ? "—" : fieldText(left.bytes, ls, f), rs < 0 ? "—" : fieldText(right.bytes, rs, f), {
        left: spanOf(left.bytes, ls, f),
        right: spanOf(right.bytes, rs, f),
      });
    }
    // Payload and user headers apart, each with a byte diff: "100 bytes vs 100 bytes" says nothing.
    const part = (ref: BatchRef, i: number, s: number, which: "payload" | "user headers") => {
      if (i < 0) return null;
      const payloadEnd = s + FRAME_HEADER_SIZE + (ref.analysis.frames.payloadLength[i] as number);
      return which === "payload" ? ref.bytes.subarray(s + FRAME_HEADER_SIZE, payloadEnd) : ref.bytes.subarray(payloadEnd, frameEnd(ref.analysis.frames, i));
    };
    for (const which of ["payload", "user headers"] as const) {
      const lpart = part(left, li, ls, which);
      const rpart = part(right, ri, rs, which);
      const same = lpart !== null && rpart !== null && sameBytes(lpart, rpart);
      const diff = lpart && rpart ? byteDiff(lpart, rpart) : null;
      const spanIn = (ref: BatchRef, p: Uint8Array | null): DiffRun | null => {
        if (!p || p.buffer !== ref.bytes.buffer) return null;
        const start = p.byteOffset - ref.bytes.byteOffset;
        return { start, end: start + p.length };
      };
      rows.push({
        spans: { left: spanIn(left, lpart), right: spanIn(right, rpart) },
        scope: `frame ${k}`,
        field: which,
        left: lpart ? `${lpart.length} bytes` : "—",
        right: rpart ? `${rpart.length} bytes` : "—",
        same,
        ...(diff && lpart && rpart ? { bytes: { left: lpart, right: rpart, diff, note: byteDiffText(diff) } } : {}),
      });
    }
  }
  return rows;
}
