/**
 * Rows of the batch header table: the eight fields of BATCH_HEADER_FIELDS read from
 * the input, plus derived facts (stamped?, blob length, frames, first/last message offset).
 */
import {
  BATCH_FIELD,
  BATCH_HEADER_FIELDS,
  BATCH_HEADER_SIZE,
  showOf,
  type ByteKind,
  type FieldRole,
  type FieldSpec,
  type ValueShow,
} from "../../format/fields.ts";
import { readField, type AnyFieldValue } from "../../format/field-codec.ts";
import { ByteReader, nonzeroRuns } from "../../format/reader.ts";
import { bytesToHex, hex128, hex64 } from "../../format/values.ts";
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import { formatCount, plural, timeWithRaw } from "../common/cell-text.ts";
import { frameEnd, frameOffsetDelta } from "../../core/model/frame-columns.ts";
import { windowSlice, type ByteWindow } from "../../lib/input-bytes.ts";

/** One row of the batch header table. */
export interface HeaderFieldRow {
  /** Stable row id: the field name, or "derived:<name>". */
  readonly id: string;
  readonly name: string;
  /** The field's byte kind (for its colour), or null for a derived row. */
  readonly kind: ByteKind | null;
  readonly role: FieldRole | "derived";
  /** Offset inside the batch header, or null for a derived row. */
  readonly relOffset: number | null;
  /** The bytes the row is about, [start, end) in the input. */
  readonly start: number;
  readonly end: number;
  /** Field size in bytes, or null for a derived row. */
  readonly size: number | null;
  /** The field's bytes as hex in wire order (or a summary for reserved). */
  readonly raw: string;
  /** The value in human form. */
  readonly value: string;
  /** Whether the value is fine, wrong, or carries no verdict. */
  readonly status: "ok" | "bad" | "warn" | null;
  readonly description: string;
  /** True while the field's bytes are being read from the file (raw and value are placeholders). */
  readonly pending?: boolean;
}

/** Runs of nonzero bytes in bytes[start, end), as half-open ranges (the reader's, re-exported for the table's callers). */
export { nonzeroRuns };

/**
 * The reserved bytes in a sentence: "204 bytes, all zero", or "3 nonzero bytes at 60..63"
 * (half-open offsets relative to `base`, several runs separated by commas); bytes [start, end) of window `w`.
 */
export function reservedSummary(w: ByteWindow, start: number, end: number, base: number): string {
  const runs = nonzeroRuns(w.bytes, start - w.start, end - w.start);
  if (runs.length === 0) return `${plural(end - start, "byte")}, all zero`;
  const count = runs.reduce((n, [s, e]) => n + e - s, 0);
  const shown = runs.slice(0, 4).map(([s, e]) => `${s + w.start - base}..${e + w.start - base}`);
  if (runs.length > 4) shown.push(`… (${runs.length} runs)`);
  return `${formatCount(count)} nonzero byte${count === 1 ? "" : "s"} at ${shown.join(", ")}`;
}

/** What a field row shows while its bytes are being read from the file. */
export const PENDING_TEXT = "reading…";

type Shown = { value: string; status: HeaderFieldRow["status"] };

/** The value cell of a batch header field, one renderer per way a layout table shows a value (fields.ts ValueShow). */
const SHOW_VALUE: { readonly [S in ValueShow]: (v: AnyFieldValue, spec: FieldSpec, batch: BatchModel, field: Uint8Array) => Shown } = {
  integer: (v) => ({ value: typeof v === "number" ? formatCount(v) : String(v), status: null }),
  // A server-stamped time of 0 means the server has not stamped the batch yet.
  micros: (v, spec) => ({ value: v === 0n ? (spec.role === "server-stamped" ? "0 (not stamped)" : "0") : timeWithRaw(v as bigint), status: null }),
  "byte-length": (v) => ({ value: `${String(v)} bytes`, status: null }),
  "total-length": (v, _spec, batch) => {
    const n = BigInt(v as number | bigint);
    if (n < BigInt(BATCH_HEADER_SIZE)) return { value: `${n} bytes: less than ${BATCH_HEADER_SIZE} ✗`, status: "bad" };
    const inInput = batch.end - batch.start;
    if (n > BigInt(inInput)) return { value: `${n} bytes; the input holds ${formatCount(inInput)} ✗`, status: "bad" };
    return { value: `${n} bytes`, status: null };
  },
  "frame-count": (v, _spec, batch) => {
    const n = Number(v);
    if (n !== batch.frameCount && batch.computedChecksum !== null) {
      return { value: `${formatCount(n)} (walked ${plural(batch.frameCount, "complete frame")}) ✗`, status: "bad" };
    }
    return { value: formatCount(n), status: null };
  },
  checksum: (v, _spec, batch) => {
    const stored = v as bigint;
    const computed = batch.computedChecksum;
    if (computed === null) return { value: `stored ${hex64(stored)} / computed — (no blob to check)`, status: null };
    const ok = computed === stored;
    return { value: `stored ${hex64(stored)} / computed ${hex64(computed)} ${ok ? "✓" : "✗"}`, status: ok ? "ok" : "bad" };
  },
  "message-id": (v) => ({ value: hex128(v as bigint), status: null }),
  "offset-delta": (v) => ({ value: String(v), status: null }),
  "time-delta": (v) => ({ value: `${String(v)} µs`, status: null }),
  reserved: (_v, _spec, _batch, field) =>
    nonzeroRuns(field, 0, field.length).length === 0
      ? { value: "all zero ✓", status: "ok" }
      : { value: "nonzero ✗: the server rejects this batch", status: "bad" },
  hex: (_v, _spec, _batch, field) => ({ value: bytesToHex(field, " "), status: null }),
};

function fieldValue(spec: FieldSpec, batch: BatchModel, w: ByteWindow, at: number): Shown {
  const value = readField(new ByteReader(w.bytes), at - w.start - spec.offset, spec);
  return SHOW_VALUE[showOf(spec)](value, spec, batch, windowSlice(w, at, at + spec.size));
}

/**
 * The rows for batch `index`: fields first (in wire order), then derived rows. `window` holds the batch
 * header as far as the input goes (absolute offsets: in memory wholeWindow(bytes), on demand
 * source.peek(start, start + 256)); null while it is being read: the field rows then say PENDING_TEXT.
 */
export function batchHeaderRows(analysis: Analysis, window: ByteWindow | null, index: number): HeaderFieldRow[] {
  const batch = analysis.batches.at(index);
  if (!batch) return [];
  const rows: HeaderFieldRow[] = [];
  const inputEnd = window ? window.start + window.bytes.length : 0;
  for (const spec of BATCH_HEADER_FIELDS) {
    const start = batch.start + spec.offset;
    const end = start + spec.size;
    const base = {
      id: spec.name,
      name: spec.name,
      kind: spec.kind,
      role: spec.role,
      relOffset: spec.offset,
      start,
      size: spec.size,
      description: spec.description,
    };
    if (!window) {
      rows.push({ ...base, end, raw: "··", value: PENDING_TEXT, status: null, pending: true });
      continue;
    }
    const present = Math.max(0, Math.min(end, inputEnd) - start);
    if (present < spec.size) {
      // Only a header cut by the end of the input gets here.
      const have = windowSlice(window, start, start + present);
      const part = spec.type === "bytes" ? reservedSummary(window, start, start + present, batch.start) : bytesToHex(have, " ");
      rows.push({
        ...base,
        end: start + present,
        raw: present > 0 ? `${part} (${present} of ${spec.size} bytes)` : "(past the end of the input)",
        value: "— (incomplete header)",
        status: null,
      });
      continue;
    }
    const raw = spec.type === "bytes" ? reservedSummary(window, start, end, batch.start) : bytesToHex(windowSlice(window, start, end), " ");
    rows.push({ ...base, end, raw, ...fieldValue(spec, batch, window, start) });
  }
  const header = batch.header;
  if (!header) return rows;

  const derived = (name: string, start: number, end: number, value: string, description: string, status: HeaderFieldRow["status"] = null): void => {
    rows.push({ id: `derived:${name}`, name, kind: null, role: "derived", relOffset: null, start, end, size: null, raw: "", value, status, description });
  };
  const ts = batch.start + BATCH_FIELD.base_timestamp.offset;
  derived(
    "stamped?",
    ts,
    ts + BATCH_FIELD.base_timestamp.size,
    batch.stamped ? "yes: base_timestamp ≠ 0, the server appended it" : "no: a producer batch (base_timestamp = 0)",
    "A batch is stamped when base_timestamp ≠ 0; every other batch follows the producer rules.",
  );

  const blobStart = batch.start + BATCH_HEADER_SIZE;
  if (header.batchLength < BigInt(BATCH_HEADER_SIZE)) {
    const length = batch.start + BATCH_FIELD.batch_length.offset;
    derived(
      "blob length",
      length,
      length + BATCH_FIELD.batch_length.size,
      `undefined: batch_length < ${BATCH_HEADER_SIZE}`,
      `batch_length − ${BATCH_HEADER_SIZE}: the bytes holding the frames.`,
      "bad",
    );
  } else {
    const declared = header.batchLength - BigInt(BATCH_HEADER_SIZE);
    const inInput = Math.max(0, batch.end - blobStart);
    const text = declared > BigInt(inInput) ? `${declared} bytes declared, ${formatCount(inInput)} in the input` : `${declared} bytes`;
    derived("blob length", blobStart, Math.max(blobStart, batch.end), text, `batch_length − ${BATCH_HEADER_SIZE}: the bytes holding the frames.`);
  }

  const truncated = batch.truncatedFrame ? `, then 1 truncated frame at +${batch.truncatedFrame.start - batch.start}` : "";
  derived(
    "complete frames",
    blobStart,
    Math.max(blobStart, batch.end),
    `${formatCount(batch.frameCount)}${truncated}`,
    "Frames whose header, payload and user headers all lie inside the blob; the batch checksum and offset rules use them alone.",
    batch.truncatedFrame ? "bad" : null,
  );

  const f = analysis.frames;
  if (batch.frameCount > 0) {
    const first = batch.firstFrame;
    const last = batch.firstFrame + batch.frameCount - 1;
    derived(
      "first message offset",
      f.start[first] as number,
      frameEnd(f, first),
      (header.baseOffset + BigInt(frameOffsetDelta(f, first))).toString(),
      "base_offset + the first frame's offset_delta.",
    );
    derived(
      "last message offset",
      f.start[last] as number,
      frameEnd(f, last),
      (header.baseOffset + BigInt(frameOffsetDelta(f, last))).toString(),
      "base_offset + the last complete frame's offset_delta.",
    );
  } else {
    derived("first message offset", blobStart, blobStart, "— (no complete frames)", "base_offset + the first frame's offset_delta.");
  }
  return rows;
}
