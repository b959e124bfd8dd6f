/**
 * What the tooltip says about one byte: its field, where it sits, the spec's description and the
 * decoded value. Pure: everything is read from the analysis and the bytes, nothing from the DOM.
 */
import { visibleText } from "../../lib/text-escape.ts";
import type { Analysis, BatchModel } from "../../core/model/model.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { BATCH_HEADER_SIZE, describeKind, showOf, type ValueShow } from "../../format/fields.ts";
import { fieldValueText } from "../../format/containers/value-text.ts";
import { readField, type AnyFieldValue } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import { asciiOf, bytesToHex, decodeMessageId, hex128, hex64, hexOffset, plural, timeText as timeOf, millisToIso } from "../../format/values.ts";

export { plural };
import type { RangeIndex } from "../../lib/range-index.ts";
import { fieldAt, type FieldHit } from "./field-at.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import { computedChecksumOf } from "../../core/model/frame-columns.ts";
import { bytesIn, type InputWindows } from "../../core/view/byte-map.ts";

/** One labelled line of the tooltip; tone marks a checksum verdict. */
export interface InfoRow {
  readonly label: string;
  readonly value: string;
  readonly tone?: "ok" | "bad";
}

/** Everything the tooltip shows about a byte. */
export interface ByteInfo {
  readonly hit: FieldHit;
  /** The spec's field name, e.g. "base_offset". */
  readonly name: string;
  /** Where the field is, e.g. "batch 0 · frame 2". */
  readonly where: string;
  /** The spec's description of the field. */
  readonly description: string;
  readonly rows: readonly InfoRow[];
  /** Diagnostics covering this byte. */
  readonly problems: readonly Diagnostic[];
}

/** Bytes shown in hex previews. */
const PREVIEW_BYTES = 24;
/** Bytes shown in text previews. */
const TEXT_PREVIEW_BYTES = 48;
/** User-header blocks up to this size are decoded as TLV for the tooltip; larger ones are previewed raw. */
const MAX_TLV_DECODE = 64 * 1024;
/** User headers listed before "+N more". */
const MAX_HEADERS_SHOWN = 4;

/** An offset as hex (8 digits at least) and decimal, e.g. "0x00000028 (40)". */
export function formatOffset(offset: number): string {
  return `${hexOffset(offset)} (${offset})`;
}

/** The first bytes of a block of `length` bytes (default: all of `bytes`) as spaced hex, with an ellipsis when there is more. */
export function hexPreview(bytes: Uint8Array, max = PREVIEW_BYTES, length = bytes.length): string {
  if (length === 0) return "(empty)";
  return bytesToHex(bytes.subarray(0, max), " ") + (length > max ? " …" : "");
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * The first bytes of a block as quoted text when they look like text (mostly printable ASCII or
 * UTF-8), else null. Control and bidi characters show as their visible escapes (lib/text-escape.ts).
 */
export function textPreview(bytes: Uint8Array, max = TEXT_PREVIEW_BYTES, length = bytes.length): string | null {
  const head = bytes.subarray(0, max);
  if (head.length === 0) return null;
  let texty = 0;
  for (const b of head) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d || b >= 0x80) texty++;
  if (texty < head.length * 0.85) return null;
  const text = visibleText(utf8.decode(head));
  return `"${text}"${length > max ? "…" : ""}`;
}

/** A microsecond timestamp as an ISO date, or a note when it is zero or out of range. */
export function timeText(micros: bigint): string {
  return timeOf(micros, { zero: "0 (not set)", outOfRange: () => "out of range for a date" });
}

/** A checksum verdict row: the computed value and ✓/✗ against the stored one. */
export function checksumRow(stored: bigint, computed: bigint | null, why: string): InfoRow {
  if (computed === null) return { label: "Computed", value: `not computed (${why})` };
  return computed === stored
    ? { label: "Computed", value: `${hex64(computed)} ✓ matches`, tone: "ok" }
    : { label: "Computed", value: `${hex64(computed)} ✗ differs`, tone: "bad" };
}

function uuidOfHex(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function whereText(analysis: Analysis, hit: FieldHit): string {
  if (hit.container) return `container · ${describeKind(hit.kind).scope === "container" ? hit.kind.slice(0, hit.kind.indexOf(".")) : ""} layout`;
  if (hit.batch < 0) return "outside any batch";
  if (hit.frameStart < 0) return hit.kind === "unattributed" ? `batch ${hit.batch}, outside any frame` : `batch ${hit.batch} header`;
  const total = analysis.batches.frameCount(hit.batch);
  return `batch ${hit.batch} · frame ${hit.frameInBatch}${hit.truncated ? " (truncated)" : ` of ${total}`}`;
}

/** What a value renderer knows: the field, its decoded value and bytes, and the model around it. */
interface ShownField {
  readonly analysis: Analysis;
  readonly hit: FieldHit;
  readonly value: AnyFieldValue;
  readonly field: Uint8Array;
  readonly batch: BatchModel | null;
}

/** The value rows of a fixed field, one renderer per way a layout table shows a value (fields.ts ValueShow). */
const SHOW_ROWS: { readonly [S in ValueShow]: (f: ShownField) => InfoRow[] } = {
  integer: ({ value }) => [{ label: "Value", value: String(value) }],
  micros: ({ value }) => [
    { label: "Value", value: `${String(value)} µs` },
    { label: "Time", value: timeText(value as bigint) },
  ],
  "byte-length": ({ value }) => [{ label: "Value", value: plural(value as number | bigint, "byte") }],
  "total-length": ({ value }) => [{ label: "Value", value: plural(value as number | bigint, "byte") }],
  "frame-count": ({ value, batch }) => {
    const v = Number(value);
    const walked = batch?.frameCount ?? 0;
    return [
      { label: "Value", value: String(v) },
      { label: "Frames walked", value: `${walked} ${walked === v ? "✓" : "✗"}`, tone: walked === v ? "ok" : "bad" },
    ];
  },
  checksum: ({ analysis, hit, value, batch }) => {
    const v = value as bigint;
    // A checksum in a frame header is the frame's; one in the batch header is the batch's.
    if (hit.frameStart >= 0) {
      const computed = hit.frame >= 0 ? computedChecksumOf(analysis.frames, hit.frame, v) : null;
      return [{ label: "Stored", value: hex64(v) }, checksumRow(v, computed, "frame truncated")];
    }
    return [{ label: "Stored", value: hex64(v) }, checksumRow(v, batch?.computedChecksum ?? null, `header incomplete or batch_length < ${BATCH_HEADER_SIZE}`)];
  },
  "message-id": ({ field }) => {
    const id = decodeMessageId(field);
    const version = !id.rfcVariant
      ? "not an RFC 4122/9562 UUID"
      : id.unixMillis !== null
        ? `v${id.version}, ${millisToIso(id.unixMillis) ?? `${id.unixMillis} ms`}`
        : `v${id.version}`;
    return [
      { label: "u128", value: hex128(id.value) },
      { label: "UUID (wire order)", value: `${id.uuid} · ${version}` },
      { label: "UUID (u128 value)", value: uuidOfHex(hex128(id.value)) },
    ];
  },
  "offset-delta": ({ value, batch }) => {
    const rows: InfoRow[] = [{ label: "Value", value: String(value) }];
    if (batch?.header) rows.push({ label: "Message offset", value: (batch.header.baseOffset + BigInt(value as number)).toString() });
    return rows;
  },
  "time-delta": ({ value, batch }) => {
    const rows: InfoRow[] = [{ label: "Value", value: `${String(value)} µs` }];
    if (batch?.header) {
      const t = batch.header.originTimestamp + BigInt(value as number);
      rows.push({ label: "Producer time", value: `${t} µs · ${timeText(t)}` });
    }
    return rows;
  },
  reserved: ({ field }) => {
    let nonzero = 0;
    for (const b of field) if (b !== 0) nonzero++;
    return nonzero === 0
      ? [{ label: "Value", value: "all zero ✓", tone: "ok" }]
      : [
          { label: "Value", value: `${plural(nonzero, "nonzero byte")} ✗`, tone: "bad" },
          { label: "Hex", value: hexPreview(field) },
        ];
  },
  hex: ({ field }) => [{ label: "Hex", value: hexPreview(field) }],
};

/**
 * How many bytes from a field's start the tooltip reads: a fixed field whole, a user-header block whole
 * when it is small enough to decode, else the head its previews show. Never the whole of a large payload.
 */
export function fieldBytesRead(hit: FieldHit): number {
  const size = hit.end - hit.start;
  if (hit.spec) return Math.min(size, hit.spec.size);
  if (!hit.container && hit.kind === "frame.user_headers" && size <= MAX_TLV_DECODE) return size;
  return Math.min(size, TEXT_PREVIEW_BYTES);
}

/** The byte ranges describeByte reads about `hit`: the byte itself and the head of its field (kindNeeds gives what fieldAt reads). */
export function byteInfoNeeds(hit: FieldHit): { start: number; end: number }[] {
  return [
    { start: hit.offset, end: hit.offset + 1 },
    { start: hit.start, end: hit.start + fieldBytesRead(hit) },
  ];
}

function valueRows(analysis: Analysis, bytes: InputWindows, hit: FieldHit): InfoRow[] {
  const length = hit.end - hit.start;
  const field = bytesIn(bytes, hit.start, hit.start + fieldBytesRead(hit)) ?? new Uint8Array(0);
  // The container decoder already read the value (with its meaning, e.g. "2 (string)").
  if (hit.container)
    return [
      { label: "Value", value: visibleText(hit.container.value) },
      ...(hit.spec ? [] : [{ label: "Hex", value: hexPreview(field, PREVIEW_BYTES, length) }]),
    ];
  const spec = hit.spec;
  const batch = hit.batch >= 0 ? (analysis.batches.at(hit.batch) as BatchModel) : null;
  if (spec) {
    if (field.length < spec.size) return [{ label: "Value", value: `incomplete: ${field.length} of ${plural(spec.size, "byte")} in the input` }];
    // Container fields (src/format/containers) name no way of showing: the value their type gives.
    if (!spec.show) return [{ label: "Value", value: spec.type !== "bytes" ? fieldValueText(spec.type, field) : hexPreview(field) }];
    const value = readField(new ByteReader(field), -spec.offset, spec);
    return SHOW_ROWS[showOf(spec)]({ analysis, hit, value, field, batch });
  }
  // The parts no fixed field describes.
  if (hit.kind === "frame.user_headers") return userHeaderRows(field, length);
  if (hit.kind === "frame.payload") {
    const rows: InfoRow[] = [{ label: "Length", value: plural(length, "byte") }];
    const text = textPreview(field, TEXT_PREVIEW_BYTES, length);
    if (text !== null) rows.push({ label: "Text", value: text });
    rows.push({ label: "Hex", value: hexPreview(field, PREVIEW_BYTES, length) });
    return rows;
  }
  if (hit.kind === "unattributed")
    return [
      { label: "Run", value: plural(length, "byte") },
      { label: "Hex", value: hexPreview(field, PREVIEW_BYTES, length) },
    ];
  return [{ label: "Value", value: hexPreview(field, PREVIEW_BYTES, length) }];
}

// `block` is the whole block when it is small enough to decode, else its head.
function userHeaderRows(block: Uint8Array, length: number): InfoRow[] {
  const rows: InfoRow[] = [{ label: "Length", value: plural(length, "byte") }];
  if (length === 0) return rows;
  const decoded = length <= MAX_TLV_DECODE && block.length === length ? decodeUserHeaders(block) : null;
  if (decoded?.ok) {
    rows.push({ label: "TLV", value: plural(decoded.headers.length, "header") });
    decoded.headers.slice(0, MAX_HEADERS_SHOWN).forEach((h, i) => {
      rows.push({ label: `Header ${i + 1}`, value: `${visibleText(h.key.text)} = ${visibleText(h.value.text)} (${h.value.kindName})` });
    });
    if (decoded.headers.length > MAX_HEADERS_SHOWN) rows.push({ label: "…", value: `${decoded.headers.length - MAX_HEADERS_SHOWN} more` });
    return rows;
  }
  rows.push({ label: "TLV", value: decoded ? `not TLV: ${decoded.reason}` : "not decoded (block too large)" });
  const text = textPreview(block, TEXT_PREVIEW_BYTES, length);
  if (text !== null) rows.push({ label: "Text", value: text });
  rows.push({ label: "Hex", value: hexPreview(block, PREVIEW_BYTES, length) });
  return rows;
}

/**
 * Describes byte `offset` of an analysed input for the tooltip. `bytes` need only hold
 * kindNeeds(offset, offset + 1) and byteInfoNeeds of the hit: the tooltip of an input read on demand reads just those.
 */
export function describeByte(
  analysis: Analysis,
  bytes: InputWindows,
  offset: number,
  diagnostics: RangeIndex<Diagnostic>,
  container?: readonly ContainerField[],
): ByteInfo {
  const hit = fieldAt(analysis, bytes, offset, container);
  const kind = describeKind(hit.kind);
  const byte = bytesIn(bytes, offset, offset + 1)?.[0] ?? 0;
  const rows: InfoRow[] = [
    { label: "Offset", value: formatOffset(offset) },
    { label: "Byte", value: `0x${byte.toString(16).padStart(2, "0")} ${JSON.stringify(asciiOf(byte))}` },
  ];
  if (hit.batch >= 0) rows.push({ label: "In batch", value: `+${offset - hit.batchStart}` });
  if (hit.frameStart >= 0) rows.push({ label: "In frame", value: `+${offset - hit.frameStart}` });
  const size = hit.end - hit.start;
  rows.push({
    label: "Field",
    value: `${hit.start}..${hit.end} · ${hit.spec ? `${hit.spec.type}, ${plural(hit.spec.size, "byte")}` : `bytes, ${plural(size, "byte")}`}`,
  });
  for (const row of valueRows(analysis, bytes, hit)) rows.push(row);
  return {
    hit,
    name: hit.container?.name ?? kind.name,
    where: whereText(analysis, hit),
    description: kind.description,
    rows,
    problems: diagnostics.overlapping(offset, offset + 1),
  };
}
